import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { changedFingerprints, fingerprintDeclaredPaths, fingerprintPath, trackedPath } from '../../../src/core/specdir/fingerprints';
import { staleHandoffs } from '../../../src/core/specdir/handoffStaleness';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { plannedSpec, SPEC, state, TempRepo } from '../../helpers/tempRepo';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

test('fingerprintPath: a file is the sha256 of its bytes, a folder hashes one `path\\0sha` line per file, sorted, recursively', () => {
  const r = new TempRepo();
  try {
    r.write('d/b.md', 'B');
    r.write('d/a.md', 'A');
    r.write('d/sub/c.md', 'C');
    assert.equal(fingerprintPath(r.path('d/a.md')), sha('A'));
    // What loom's fingerprintPath computes for the same tree.
    const rows = [`a.md\0${sha('A')}`, `b.md\0${sha('B')}`, `sub/c.md\0${sha('C')}`];
    assert.equal(fingerprintPath(r.path('d')), sha(rows.join('\n')));
    assert.equal(fingerprintPath(r.path('missing')), undefined);
  } finally {
    r.dispose();
  }
});

test('trackedPath resolves spec files in the spec directory and everything else from the repository root, as loom does', () => {
  const roots = { dir: '/repo/specs/x', repoRoot: '/repo' };
  assert.equal(trackedPath('spec.md', roots), '/repo/specs/x/spec.md');
  assert.equal(trackedPath('tasks/', roots), '/repo/specs/x/tasks');
  assert.equal(trackedPath('tasks\\T1.md', roots), '/repo/specs/x/tasks/T1.md');
  assert.equal(trackedPath('qa-cases.md', roots), '/repo/specs/x/qa-cases.md');
  // Not one of loom's spec files: loom looks for it at the repository root.
  assert.equal(trackedPath('review-feedback.md', roots), '/repo/review-feedback.md');
  assert.equal(trackedPath('src/a.ts', roots), '/repo/src/a.ts');
  assert.equal(trackedPath('/etc/passwd', roots), undefined);
  assert.equal(trackedPath('../outside.md', roots), undefined);
  assert.equal(trackedPath('', roots), undefined);
});

test('fingerprintDeclaredPaths keeps the declared keys of paths that exist; changedFingerprints finds changed and missing ones', () => {
  const r = new TempRepo();
  try {
    plannedSpec(r);
    r.write('src/a.ts', 'export {}\n');
    const roots = { dir: r.path(SPEC), repoRoot: r.root };
    const prints = fingerprintDeclaredPaths(['tasks/', 'spec.md', 'src/a.ts', 'gone.md', 'spec.md'], roots);
    assert.deepEqual(Object.keys(prints), ['spec.md', 'src/a.ts', 'tasks/']);
    assert.deepEqual(changedFingerprints(prints, roots), []);
    r.write(`${SPEC}/tasks/T9.md`, '# T9\n');
    r.write('src/a.ts', 'export const a = 1;\n');
    assert.deepEqual(changedFingerprints({ ...prints, 'gone.md': 'ab'.repeat(32) }, roots), ['src/a.ts', 'tasks/', 'gone.md']);
  } finally {
    r.dispose();
  }
});

test('a handoff loom wrote with a folder fingerprint (tasks/) is fresh while the folder is unchanged', () => {
  const r = new TempRepo();
  try {
    plannedSpec(r);
    r.write(`${SPEC}/pipeline.state.json`, state('analyze-artifacts'));
    const roots = { dir: r.path(SPEC), repoRoot: r.root };
    r.write(`${SPEC}/handoffs/planning.json`, {
      status: 'done',
      summary: 'planned',
      artifacts: [],
      stage: 'planning',
      task_id: 'planning',
      basis_fingerprints: fingerprintDeclaredPaths(['spec.md', 'plan.md', 'tasks/'], roots),
      artifact_fingerprints: {},
      written_at: '2026-11-29T09:00:00.000Z',
    });
    const load = () => new LoomRepository(r.root).load().get(SPEC)!.snapshot;
    assert.deepEqual(staleHandoffs(load()), []);
    r.write(`${SPEC}/tasks/T2.md`, '---\nowns: [src/b.ts]\n---\n# T2\n');
    assert.deepEqual(staleHandoffs(load()), [{ handoff: 'handoffs/planning.json', changed: ['tasks/'] }]);
  } finally {
    r.dispose();
  }
});
