import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { repositoryDrift } from '../../../src/core/drift/repositoryDrift';
import { LogReader, parseLog } from '../../../src/core/drift/driftScan';
import { readSpokenFiles } from '../../../src/core/drift/specFiles';
import { spokenFiles } from '../../../src/core/drift/spokenFiles';
import { BASELINE_KEY } from '../../../src/core/drift/baseline';
import { loadSpec } from '../../../src/core/specdir/loadSpec';
import { state } from '../../helpers/tempRepo';
import { git, write } from '../executing/helpers/gitRepos';
import { commit, json, WORKFLOW } from './helpers/driftRepos';

const made: string[] = [];
after(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

const A = 'specs/2026-12-01+a';
const B = 'specs/2026-12-01+b';
const task = (...owns: string[]) => `---\nowns: [${owns.join(', ')}]\nreads: []\ndepends_on: []\n---\n# T1\n`;
const synced = (dir: string, baseline: string) =>
  json({ ...state('synced', { metadata: { [BASELINE_KEY]: { commit: baseline, recorded_at: '2026-12-01T00:00:00Z', source: 'synced' } } }), spec_dir: dir });

/** A commit at a given commit time (seconds): which baseline is oldest is the repository's word, not the clock's. */
function commitAt(root: string, time: number, message: string, files: Record<string, string | null> = {}): string {
  process.env.GIT_COMMITTER_DATE = `${time} +0000`;
  try {
    return commit(root, message, files);
  } finally {
    delete process.env.GIT_COMMITTER_DATE;
  }
}

function twoSpecRepo(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'loom-drift-range-')));
  made.push(root);
  git(root, 'init', '-q', '-b', 'main');
  commitAt(root, 1_700_000_000, 'plan', {
    '.loom/workflow.yaml': WORKFLOW,
    [`${A}/tasks/T1.md`]: task('src/a.ts'),
    [`${B}/tasks/T1.md`]: task('src/b.ts', 'src/b2.ts'),
    'src/a.ts': 'a1\n',
    'src/b.ts': 'b1\n',
    'src/b2.ts': 'c1\n',
  });
  return root;
}

async function driftOf(root: string): Promise<Map<string, { status: string; commits: string[]; subjects: string[] }>> {
  const report = await repositoryDrift(new LoomRepository(root));
  return new Map(report.specs.map((d) => [d.specDir, { status: d.status, commits: d.commits.map((c) => c.commit), subjects: d.commits.map((c) => c.subject) }]));
}

test("the oldest baseline by commit time is not every baseline's ancestor (a branch forked before it): the commits after the other baseline still count", async () => {
  const root = twoSpecRepo();
  git(root, 'branch', 'topic');
  // On main, before A's baseline: a change to B's file, which B's baseline (on the branch) never saw.
  const m = commitAt(root, 1_700_000_100, 'M: ünïcödé ✓', { 'src/b2.ts': 'c2\n' });
  const x = commitAt(root, 1_700_000_200, 'A: baseline', { 'src/a.ts': 'a2\n' });
  git(root, 'checkout', '-q', 'topic');
  const y = commitAt(root, 1_700_000_300, 'B: baseline', { 'src/b.ts': 'b2\n' });
  git(root, 'checkout', '-q', 'main');
  process.env.GIT_COMMITTER_DATE = '1700000400 +0000';
  try {
    git(root, 'merge', '-q', '--no-ff', '-m', 'merge topic', 'topic');
  } finally {
    delete process.env.GIT_COMMITTER_DATE;
  }
  commitAt(root, 1_700_000_500, 'synced', { [`${A}/pipeline.state.json`]: synced(A, x), [`${B}/pipeline.state.json`]: synced(B, y) });
  const d = await driftOf(root);
  assert.deepEqual(d.get(A), { status: 'clean', commits: [], subjects: [] });
  assert.deepEqual(d.get(B), { status: 'drifted', commits: [m], subjects: ['M: ünïcödé ✓'] });
});

test('on a line of history, each spec counts only the commits after its own baseline', async () => {
  const root = twoSpecRepo();
  const x = commitAt(root, 1_700_000_100, 'A: baseline', { 'src/a.ts': 'a2\n' });
  const aChange = commitAt(root, 1_700_000_200, 'a change', { 'src/a.ts': 'a3\n' });
  commitAt(root, 1_700_000_300, 'b change before its baseline', { 'src/b.ts': 'b2\n' });
  const y = commitAt(root, 1_700_000_400, 'B: baseline', { 'src/b2.ts': 'c2\n' });
  commitAt(root, 1_700_000_500, 'synced', { [`${A}/pipeline.state.json`]: synced(A, x), [`${B}/pipeline.state.json`]: synced(B, y) });
  const bChange = commitAt(root, 1_700_000_600, 'b change', { 'src/b.ts': 'b3\n' });
  const d = await driftOf(root);
  assert.deepEqual(d.get(A)?.commits, [aChange]);
  assert.deepEqual(d.get(B)?.commits, [bChange]);
});

test('a log read in pieces, cut anywhere, parses as the whole', () => {
  const RS = '\x1e';
  const US = '\x1f';
  const text = [
    `${RS}${'a'.repeat(40)}${US}${'b'.repeat(40)}${US}${US}Mei${US}2026-12-01T00:00:00Z${US}ünïcödé ✓ subject\0\nM\0src/a.ts\0R087\0src/b.ts\0src/c.ts\0`,
    `${RS}${'b'.repeat(40)}${US}${US}specs/x${US}Ann${US}2026-11-30T00:00:00Z${US}first\0\nA\0src/a.ts\0D\0test/é.ts\0`,
  ].join('');
  const whole = parseLog(text);
  assert.equal(whole.length, 2);
  for (const size of [1, 2, 3, 7, 64]) {
    const reader = new LogReader();
    for (let i = 0; i < text.length; i += size) reader.push(text.slice(i, i + size));
    assert.deepEqual(reader.end().commits, whole, `pieces of ${size}`);
  }
});

test("a spec's files read from its tasks and traceability alone are the ones the spec reader gives", () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'loom-drift-files-')));
  made.push(root);
  const dir = join(root, A);
  write(root, `${A}/tasks/T10.md`, task('src/ten.ts', 'src/shared.ts'));
  write(root, `${A}/tasks/T2.md`, task('./src/two.ts', 'src/shared.ts', `${A}/notes.md`, '../outside.ts'));
  write(root, `${A}/tasks/T1.md`, '---\nowns: [src/one.ts\n---\n# broken front matter\n');
  write(root, `${A}/tasks/notes.md`, task('src/not-a-task.ts'));
  mkdirSync(join(dir, 'tasks', 'T3.md'));
  write(
    root,
    `${A}/traceability.json`,
    json({
      requirements: {
        'REQ-001': {
          tasks: ['T2'],
          tests: ['tests/req.test.ts'],
          evidence: ['receipt-1', 'docs/proof.md#x'],
          behaviors: { 'REQ-001-B01': { tasks: ['T2'], tests: ['tests/a_test.py::name', 'src/two.ts#inline'], evidence: [] } },
        },
      },
    }),
  );
  const expected = spokenFiles(loadSpec(root, dir));
  assert.ok(expected.length >= 5);
  assert.deepEqual(readSpokenFiles(root, dir), expected);
  // A traceability.json that is not JSON names nothing, to either reader.
  write(root, `${A}/traceability.json`, '{ nope');
  assert.deepEqual(readSpokenFiles(root, dir), spokenFiles(loadSpec(root, dir)));
  // tasks/ as a link to a folder: the spec reader lists no folder behind it, and neither does drift.
  const other = join(root, 'elsewhere');
  write(root, 'elsewhere/T1.md', task('src/linked.ts'));
  rmSync(join(dir, 'tasks'), { recursive: true });
  symlinkSync(other, join(dir, 'tasks'));
  assert.deepEqual(readSpokenFiles(root, dir), spokenFiles(loadSpec(root, dir)));
});
