import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { request as port } from '../../../src/core/port/request';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { loadSpec } from '../../../src/core/specdir/loadSpec';
import { findWorktree } from '../../../src/core/specdir/worktree';
import { ensureFeatureWorktree, worktreeTarget } from '../../../src/core/git/featureWorktree';
import { WorktreeError } from '../../../src/core/git/worktreeError';
import { setDisplayLanguage } from '../../../src/core/messages';

const SPEC = 'specs/2026-11-29+login';
const made: string[] = [];
after(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

/** A repository `<tmp>/app` with one commit and a spec at git-worktree. */
function repo(commit = true): { root: string; specDir: string } {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'loom-wt-')));
  made.push(base);
  const root = join(base, 'app');
  const specDir = join(root, SPEC);
  mkdirSync(specDir, { recursive: true });
  writeFileSync(join(root, 'index.js'), 'module.exports = 1;\n');
  writeFileSync(join(specDir, 'pipeline.state.json'), JSON.stringify({ spec_dir: SPEC, pipeline_type: 'feature', current_stage: 'git-worktree', stage_history: [], metadata: { keep: 1 } }, null, 2));
  git(root, 'init', '-q', '-b', 'main');
  if (commit) {
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', 'init');
  }
  return { root, specDir };
}

const request = (r: { root: string; specDir: string }, location = '') => ({ repoRoot: r.root, specName: '2026-11-29+login', specDir: r.specDir, location, signal: new AbortController().signal });

test("creates feature/<date>-<name> and its worktree in loom's .worktree/<date>-<name>, then reuses it; the core records and finds it", async () => {
  const r = repo();
  const first = await ensureFeatureWorktree(request(r));
  assert.equal(first.branch, 'feature/2026-11-29-login');
  // loom-using-git-worktrees: git worktree add .worktree/<date>-<feature-name> -b feature/<date>-<feature-name>
  assert.equal(first.path, join(r.root, '.worktree', '2026-11-29-login'));
  assert.equal(first.created, true);
  assert.ok(existsSync(join(first.path, 'index.js')));

  const again = await ensureFeatureWorktree(request(r));
  assert.deepEqual([again.path, again.created], [first.path, false]);

  // Create Worktree through the spec's actor: git reuses it, the actor records it.
  const spec = new LoomRepository(r.root).load().get(SPEC)!;
  const made1 = await port(spec, { type: 'createWorktree', location: '' });
  assert.ok(made1.kind === 'changed' && made1.recorded && made1.worktree.path === first.path, JSON.stringify(made1));
  const snap = loadSpec(r.root, r.specDir);
  assert.equal(snap.state?.metadata.worktree_path, first.path);
  assert.equal(snap.state?.metadata.keep, 1, 'the rest of the metadata is kept');
  assert.equal(findWorktree(snap), first.path);
  const made2 = await port(spec, { type: 'createWorktree', location: '' });
  assert.ok(made2.kind === 'changed' && !made2.recorded, 'nothing to write the second time');
});

test('loom.worktree.location: relative to the repository', () => {
  assert.equal(worktreeTarget('/x/app', '2026-11-29+login', '../trees'), '/x/trees/2026-11-29-login');
  assert.equal(worktreeTarget('/x/app', '2026-11-29+login', '/abs'), '/abs/2026-11-29-login');
});

test('refuses clearly: no repository, no commit, uncommitted changes, branch checked out in the repository', async () => {
  const outside = realpathSync(mkdtempSync(join(tmpdir(), 'loom-nogit-')));
  made.push(outside);
  mkdirSync(join(outside, SPEC), { recursive: true });
  await assert.rejects(
    ensureFeatureWorktree({ ...request({ root: outside, specDir: join(outside, SPEC) }) }),
    (e: unknown) => e instanceof WorktreeError && e.reason === 'no-repository' && /not inside a git repository/.test(e.message),
  );

  await assert.rejects(ensureFeatureWorktree(request(repo(false))), (e: unknown) => e instanceof WorktreeError && e.reason === 'no-commit');

  const dirty = repo();
  writeFileSync(join(dirty.specDir, 'spec.md'), '# changed inside the spec: allowed\n');
  mkdirSync(join(dirty.root, 'specs', '2026-11-30+other'));
  writeFileSync(join(dirty.root, 'specs', '2026-11-30+other', 'pipeline.state.json'), '{}\n');
  writeFileSync(join(dirty.root, 'index.js'), 'module.exports = 2;\n');
  await assert.rejects(ensureFeatureWorktree(request(dirty)), (e: unknown) => e instanceof WorktreeError && e.reason === 'dirty' && /index\.js/.test(e.message) && !/spec\.md|other/.test(e.message));

  const here = repo();
  git(here.root, 'checkout', '-qb', 'feature/2026-11-29-login');
  await assert.rejects(ensureFeatureWorktree(request(here)), (e: unknown) => e instanceof WorktreeError && e.reason === 'checked-out-elsewhere');
});

test("a worktree in loom's .worktree/ does not count as an uncommitted change when the next spec's worktree is made", async () => {
  const r = repo();
  await ensureFeatureWorktree(request(r));
  const second = await ensureFeatureWorktree({ ...request(r), specName: '2026-11-30+logout' });
  assert.equal(second.path, join(r.root, '.worktree', '2026-11-30-logout'));
  assert.equal(second.created, true);
});

test('the refusals are worded in the display language; the reason stays the same English word', async () => {
  const dirty = repo();
  for (const n of [1, 2, 3, 4, 5, 6, 7]) writeFileSync(join(dirty.root, `f${n}.js`), `${n}\n`);
  setDisplayLanguage('zh');
  try {
    await assert.rejects(ensureFeatureWorktree(request(repo(false))), (e: unknown) => {
      assert.ok(e instanceof WorktreeError);
      assert.equal(e.reason, 'no-commit');
      assert.match(e.message, /^仓库 .+ 还没有任何提交；请先提交项目（worktree 从 HEAD 创建）$/);
      return true;
    });
    await assert.rejects(ensureFeatureWorktree(request(dirty)), (e: unknown) => {
      assert.ok(e instanceof WorktreeError);
      assert.equal(e.reason, 'dirty');
      assert.match(e.message, /^仓库有未提交的更改（f1\.js, f2\.js, f3\.js, f4\.js, f5\.js 等，共 7 个文件）；请先提交或 stash 它们/);
      return true;
    });
  } finally {
    setDisplayLanguage('en');
  }
  await assert.rejects(ensureFeatureWorktree(request(dirty)), (e: unknown) => e instanceof WorktreeError && /uncommitted changes \(f1\.js, .*, … \(7 files\)\)/.test(e.message));
});

test('a git command that fails is named with its cause; a renamed or oddly named file counts as a change by its own name', async () => {
  // `.worktree` a file: git cannot make the worktree's folder under it.
  const blocked = repo();
  writeFileSync(join(blocked.root, '.worktree'), 'not a folder\n');
  await assert.rejects(ensureFeatureWorktree(request(blocked)), (e: unknown) => {
    assert.ok(e instanceof WorktreeError, String(e));
    assert.equal(e.reason, 'git-failed');
    assert.match(e.message, /^git worktree add -b feature\/2026-11-29-login .+ HEAD failed: .+/);
    return true;
  });
  const moved = repo();
  git(moved.root, 'mv', 'index.js', 'main file ü.js');
  await assert.rejects(ensureFeatureWorktree(request(moved)), (e: unknown) => e instanceof WorktreeError && e.reason === 'dirty' && /\(main file ü\.js\)/.test(e.message));
});
