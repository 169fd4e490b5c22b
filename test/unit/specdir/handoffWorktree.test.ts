import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { buildTaskHandoff, staleArtifacts, writeHandoff } from '../../../src/core/executing/taskHandoff';
import { changedFingerprints } from '../../../src/core/specdir/fingerprints';
import { staleHandoffs } from '../../../src/core/specdir/handoffStaleness';
import { loadSpec } from '../../../src/core/specdir/loadSpec';
import { TempRepo } from '../../helpers/tempRepo';

// Issue #11 point 2: one rule for paths outside the spec directory, for a worktree made by
// either tool: they resolve from the repository that holds specs/ (loom 3 fingerprints.js
// resolveTrackedPath, with PipelineStateStore's projectRoot; traceability.js projectRootForSpecDir).

const SPEC = 'specs/2026-11-29+greeting';
const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const repos: TempRepo[] = [];
after(() => repos.forEach((r) => r.dispose()));

function setup() {
  const repo = new TempRepo('loom-hw-');
  const trees = new TempRepo('loom-hw-tree-');
  repos.push(repo, trees);
  repo.write('src/greet.js', 'v0\n');
  trees.write('src/greet.js', 'v1\n');
  repo.write(`${SPEC}/spec.md`, '# Greeting\n');
  repo.write(`${SPEC}/tasks/T1.md`, '---\nowns: [src/greet.js]\n---\n# T1\n');
  repo.write(`${SPEC}/pipeline.state.json`, { spec_dir: SPEC, pipeline_type: 'feature', current_stage: 'executing', stage_history: [], metadata: { worktree_path: trees.root } });
  return { repo, trees, dir: join(repo.root, SPEC) };
}

test('a fingerprint of a non-spec path is compared in the repository that holds the spec, never in the feature worktree', () => {
  const { repo, dir } = setup();
  // As loom writes it from the repository: the digest of the repository's src/greet.js.
  repo.write(`${SPEC}/handoffs/T1.json`, { task_id: 'T1', status: 'done', summary: 'T1 done', artifacts: ['src/greet.js'], artifact_fingerprints: { 'src/greet.js': sha('v0\n') } });
  assert.deepEqual(staleHandoffs(loadSpec(repo.root, dir)), []);
  // A digest of the worktree's version is stale for loom, so it is here.
  repo.write(`${SPEC}/handoffs/T1.json`, { task_id: 'T1', status: 'done', summary: 'T1 done', artifacts: ['src/greet.js'], artifact_fingerprints: { 'src/greet.js': sha('v1\n') } });
  assert.deepEqual(staleHandoffs(loadSpec(repo.root, dir)), [{ handoff: 'handoffs/T1.json', changed: ['src/greet.js'] }]);
  assert.deepEqual(changedFingerprints({ '../escape.js': sha('x') }, { dir, repoRoot: repo.root }), ['../escape.js'], 'a path escaping the repository is never fresh');
  assert.deepEqual(changedFingerprints({ 'spec.md': sha('# Greeting\n').toUpperCase() }, { dir, repoRoot: repo.root }), ['spec.md'], 'compared as recorded, as compareFingerprints does');
});

test('a task handoff written by the executing stage records loom-rule artifact_fingerprints and its own worktree_fingerprints', () => {
  const { repo, trees, dir } = setup();
  const handoff = buildTaskHandoff({
    task: 'T1',
    summary: 'greets',
    artifacts: ['src/greet.js'],
    exportedInterfaces: [],
    requirements: [],
    concerns: '',
    worktree: trees.root,
    now: '2026-11-29T10:00:00.000Z',
  });
  writeHandoff(loadSpec(repo.root, dir), 'T1', handoff);
  const written = repo.json(`${SPEC}/handoffs/T1.json`);
  assert.deepEqual(written.artifact_fingerprints, { 'src/greet.js': sha('v0\n') }, "loom's rule: the repository's file");
  assert.deepEqual(written.worktree_fingerprints, { 'src/greet.js': sha('v1\n') }, "the extension's: the worktree's file");
  assert.deepEqual(staleHandoffs(loadSpec(repo.root, dir)), []);

  // A change in the worktree is what the next task's refresh sees; loom, reading the repository, does not.
  trees.write('src/greet.js', 'v2\n');
  assert.deepEqual(staleArtifacts(written, trees.root), ['src/greet.js']);
  assert.deepEqual(staleHandoffs(loadSpec(repo.root, dir)), []);
  // A change in the repository is stale for both.
  repo.write('src/greet.js', 'v0, edited\n');
  assert.deepEqual(staleHandoffs(loadSpec(repo.root, dir)), [{ handoff: 'handoffs/T1.json', changed: ['src/greet.js'] }]);
});
