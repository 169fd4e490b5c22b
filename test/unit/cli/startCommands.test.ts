/** `loom-vscode new` and `loom-vscode worktree`: starting a feature and its git-worktree stage, headless. */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { main } from '../../../src/cli/main';

const temps: string[] = [];
after(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function cli(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

function repo(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'loom-start-')), 'app');
  temps.push(join(dir, '..'));
  mkdirSync(dir);
  writeFileSync(join(dir, 'README.md'), '# app\n');
  return dir;
}

const git = (cwd: string, ...args: string[]) => {
  const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
};

test('new starts specs/<date>+<slug>/ at the first stage; qa/ specs follow the qa pipeline; an existing one is refused', async () => {
  const root = repo();
  const run = await cli('new', '--name', 'User Login!', '--cwd', root, '--json');
  assert.equal(run.code, 0, run.err);
  const made = JSON.parse(run.out);
  assert.match(made.spec_dir, /^specs\/\d{4}-\d{2}-\d{2}\+user-login$/);
  assert.deepEqual({ type: made.pipeline_type, stage: made.stage }, { type: 'feature', stage: 'brainstorming' });
  const state = JSON.parse(readFileSync(join(root, made.spec_dir, 'pipeline.state.json'), 'utf8'));
  // spec_dir absolute in the file, as loom 3's PipelineStateStore.init writes it.
  assert.deepEqual({ dir: state.spec_dir, stage: state.current_stage, history: state.stage_history }, { dir: resolve(root, made.spec_dir), stage: 'brainstorming', history: [] });
  assert.ok(existsSync(join(root, made.spec_dir, 'progress.md')));
  assert.match(readFileSync(join(root, made.spec_dir, 'spec.md'), 'utf8'), /^### REQ-001 /m, 'a spec.md template to draft into');

  const qa = JSON.parse((await cli('new', '--name', 'smoke', '--spec-root', 'qa', '--cwd', root, '--json')).out);
  assert.match(qa.spec_dir, /^qa\//);
  assert.equal(qa.pipeline_type, 'qa');

  const again = await cli('new', '--name', 'user login', '--cwd', root);
  assert.equal(again.code, 2);
  assert.match(again.err, /already exists/);
  assert.equal((await cli('new', '--name', 'x', '--spec-root', 'docs', '--cwd', root)).code, 2);
  assert.equal((await cli('new', '--cwd', root)).code, 2, '--name is required');
});

test('worktree makes the feature branch and records it; a repository without a commit or with uncommitted changes is refused with exit 1', async () => {
  const root = repo();
  git(root, 'init', '-q', '-b', 'main');
  const spec = JSON.parse((await cli('new', '--name', 'export', '--cwd', root, '--json')).out).spec_dir as string;

  const noCommit = await cli('worktree', '--spec-dir', spec, '--cwd', root);
  assert.equal(noCommit.code, 1);
  assert.match(noCommit.err, /no commit yet/);

  git(root, 'add', 'README.md');
  git(root, 'commit', '-q', '-m', 'init');
  writeFileSync(join(root, 'README.md'), '# app, edited\n');
  const dirty = await cli('worktree', '--spec-dir', spec, '--cwd', root);
  assert.equal(dirty.code, 1);
  assert.match(dirty.err, /uncommitted changes \(README\.md\)/);
  git(root, 'checkout', '--', 'README.md');

  // The spec's own files (uncommitted, in specs/) do not count as a dirty tree.
  const run = await cli('worktree', '--spec-dir', spec, '--location', '../trees', '--cwd', root, '--json');
  assert.equal(run.code, 0, run.err);
  const made = JSON.parse(run.out);
  const date = spec.slice('specs/'.length, 'specs/'.length + 10);
  assert.deepEqual(made, { spec_dir: spec, path: join(root, '..', 'trees', `${date}-export`), branch: `feature/${date}-export`, created: true });
  const state = JSON.parse(readFileSync(join(root, spec, 'pipeline.state.json'), 'utf8'));
  assert.equal(state.metadata.worktree_path, made.path);

  const text = await cli('worktree', '--spec-dir', spec, '--location', '../trees', '--cwd', root);
  assert.equal(text.code, 0);
  assert.match(text.out, new RegExp(`reusing feature/${date}-export at `));
});

test('new writes the spec.md template in the language of LANG / LC_ALL', async () => {
  const root = repo();
  const saved = { LANG: process.env.LANG, LC_ALL: process.env.LC_ALL };
  try {
    delete process.env.LC_ALL;
    process.env.LANG = 'zh_CN.UTF-8';
    const zh = JSON.parse((await cli('new', '--name', '用户 登录', '--cwd', root, '--json')).out);
    assert.match(readFileSync(join(root, zh.spec_dir, 'spec.md'), 'utf8'), /^## 需求$/m);
    process.env.LANG = 'C.UTF-8';
    const en = JSON.parse((await cli('new', '--name', 'export', '--cwd', root, '--json')).out);
    assert.match(readFileSync(join(root, en.spec_dir, 'spec.md'), 'utf8'), /^## Requirements$/m);
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
});
