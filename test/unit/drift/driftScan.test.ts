import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { scanDrift, type DriftReport } from '../../../src/core/drift/driftScan';
import { driftSubjectOf } from '../../../src/core/drift/driftSubjects';
import { BASELINE_KEY } from '../../../src/core/drift/baseline';
import { SPEC, state } from '../../helpers/tempRepo';
import { git, write } from '../executing/helpers/gitRepos';
import { commit, json, syncedRepo, TASK, WORKFLOW } from './helpers/driftRepos';

const made: string[] = [];
after(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function drift(root: string): Promise<DriftReport['specs'][number]> {
  const repo = new LoomRepository(root).load();
  const report = await scanDrift(root, repo.all().map(driftSubjectOf));
  assert.equal(report.specs.length, 1);
  return report.specs[0];
}

test('a commit after the baseline that changes an owned file drifts; an unrelated one does not', async () => {
  const { root, baseline } = syncedRepo(made);
  commit(root, 'unrelated', { 'src/other.ts': 'o2\n', 'README.md': 'hi\n' });
  let d = await drift(root);
  assert.equal(d.status, 'clean');
  assert.deepEqual(d.baseline, { commit: baseline, source: 'synced', recorded_at: '2026-12-01T00:00:00Z' });
  const c = commit(root, 'tweak login', { 'src/login.ts': 'v3\n' });
  d = await drift(root);
  assert.equal(d.status, 'drifted');
  assert.deepEqual(
    d.files.map((f) => [f.path, f.change, f.commits, f.tasks]),
    [['src/login.ts', 'modified', [c], ['T1']]],
  );
  assert.deepEqual(
    d.commits.map((x) => [x.commit, x.subject, x.files]),
    [[c, 'tweak login', ['src/login.ts']]],
  );
});

test('a renamed owned file is followed: the rename and the later change under the new name', async () => {
  const { root } = syncedRepo(made);
  git(root, 'mv', 'src/login.ts', 'src/auth.ts');
  const moved = commit(root, 'rename');
  const changed = commit(root, 'change auth', { 'src/auth.ts': 'v2\nmore\n' });
  const d = await drift(root);
  assert.equal(d.status, 'drifted');
  assert.deepEqual(
    d.files.map((f) => [f.path, f.change, f.renamedTo, f.commits]),
    [['src/login.ts', 'renamed', 'src/auth.ts', [moved, changed]]],
  );
});

test('a deleted test file names the behavior it tested', async () => {
  const { root } = syncedRepo(made);
  const c = commit(root, 'drop test', { 'test/login.test.ts': null });
  const d = await drift(root);
  assert.equal(d.status, 'drifted');
  assert.deepEqual(d.goneTests, [{ file: 'test/login.test.ts', behaviors: ['REQ-001-B01'], commit: c }]);
  assert.equal(d.files[0].change, 'deleted');
});

test("the spec's own later commits (its Loom-Spec trailer) do not count; another spec's do", async () => {
  const { root } = syncedRepo(made);
  commit(root, `T2: more login\n\nLoom-Spec: ${SPEC}\nLoom-Task: T2`, { 'src/login.ts': 'v3\n' });
  assert.equal((await drift(root)).status, 'clean');
  const other = commit(root, 'T1: other\n\nLoom-Spec: specs/2026-12-01+other\nLoom-Task: T1', { 'src/login.ts': 'v4\n' });
  const d = await drift(root);
  assert.equal(d.status, 'drifted');
  assert.deepEqual(
    d.commits.map((x) => x.commit),
    [other],
  );
});

test("a merge commit is handled: the branch's commit is named, the merge itself brings nothing", async () => {
  const { root } = syncedRepo(made);
  git(root, 'checkout', '-q', '-b', 'topic');
  const onBranch = commit(root, 'branch change', { 'src/login.ts': 'branch\n' });
  git(root, 'checkout', '-q', 'main');
  commit(root, 'main change', { 'src/other.ts': 'o3\n' });
  git(root, 'merge', '-q', '--no-ff', '-m', 'merge topic', 'topic');
  const d = await drift(root);
  assert.equal(d.status, 'drifted');
  assert.deepEqual(
    d.commits.map((x) => x.commit),
    [onBranch],
  );
});

test('a commit made before the baseline on a branch merged after it does not count', async () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'loom-drift-')));
  made.push(root);
  git(root, 'init', '-q', '-b', 'main');
  commit(root, 'plan', { '.loom/workflow.yaml': WORKFLOW, [`${SPEC}/tasks/T1.md`]: TASK, 'src/login.ts': 'v1\n' });
  git(root, 'checkout', '-q', '-b', 'topic');
  commit(root, 'old branch work', { 'src/other.ts': 'x\n' });
  git(root, 'checkout', '-q', 'main');
  const baseline = commit(root, 'T1', { 'src/login.ts': 'v2\n' });
  commit(root, 'synced', { [`${SPEC}/pipeline.state.json`]: json(state('synced', { metadata: { [BASELINE_KEY]: { commit: baseline, recorded_at: 'x', source: 'synced' } } })) });
  git(root, 'merge', '-q', '--no-ff', '-m', 'merge topic', 'topic');
  assert.equal((await drift(root)).status, 'clean');
});

test('without a recorded baseline, it is inferred from the commit that moved pipeline.state.json to synced', async () => {
  const { root } = syncedRepo(made, false);
  const movedAt = git(root, 'rev-parse', 'HEAD').trim();
  commit(root, 'tweak login', { 'src/login.ts': 'v3\n' });
  const d = await drift(root);
  assert.deepEqual(d.baseline, { commit: movedAt, source: 'inferred' });
  assert.equal(d.status, 'drifted');
});

test('a shallow clone without the commit of the move to synced is reported as shallow, never guessed', async () => {
  const { root } = syncedRepo(made, false);
  commit(root, 'later', { 'src/login.ts': 'v3\n' });
  const clone = realpathSync(mkdtempSync(join(tmpdir(), 'loom-drift-shallow-')));
  made.push(clone);
  git(clone, 'clone', '-q', '--depth', '1', `file://${root}`, 'c');
  const d = await drift(join(clone, 'c'));
  assert.equal(d.status, 'shallow');
  assert.equal(d.baseline, undefined);
});

test('a recorded baseline git does not have is said (history rewritten), and a spec not synced is not scanned', async () => {
  const { root } = syncedRepo(made);
  write(root, `${SPEC}/pipeline.state.json`, json(state('synced', { metadata: { [BASELINE_KEY]: { commit: 'a'.repeat(40), recorded_at: 'x', source: 'synced' } } })));
  assert.equal((await drift(root)).status, 'unknown-baseline');
  write(root, `${SPEC}/pipeline.state.json`, json(state('executing')));
  const repo = new LoomRepository(root).load();
  assert.deepEqual((await scanDrift(root, repo.all().map(driftSubjectOf))).specs, []);
});
