import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { changedFingerprints } from '../../../src/core/specdir/fingerprints';
import { staleHandoffs } from '../../../src/core/specdir/handoffStaleness';
import { loadSpec } from '../../../src/core/specdir/loadSpec';
import { TempRepo } from '../../helpers/tempRepo';

const SPEC = 'specs/2026-11-29+greeting';
const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const repos: TempRepo[] = [];
after(() => repos.forEach((r) => r.dispose()));

test('a task handoff written in a separate feature worktree is fresh while its artifacts match there', () => {
  const repo = new TempRepo('loom-hw-');
  const trees = new TempRepo('loom-hw-tree-');
  repos.push(repo, trees);
  trees.write('src/greet.js', 'v1\n');
  repo.write(`${SPEC}/spec.md`, '# Greeting\n');
  repo.write(`${SPEC}/pipeline.state.json`, { spec_dir: SPEC, pipeline_type: 'feature', current_stage: 'executing', stage_history: [], metadata: { worktree_path: trees.root } });
  repo.write(`${SPEC}/handoffs/T1.json`, { task_id: 'T1', status: 'done', summary: 'T1 done', artifacts: ['src/greet.js'], artifact_fingerprints: { 'src/greet.js': sha('v1\n') } });
  const fresh = loadSpec(repo.root, join(repo.root, SPEC));
  assert.equal(fresh.handoffs.size, 1);
  assert.deepEqual(staleHandoffs(fresh), []);

  trees.write('src/greet.js', 'v2\n');
  assert.deepEqual(staleHandoffs(loadSpec(repo.root, join(repo.root, SPEC))), [{ handoff: 'handoffs/T1.json', changed: ['src/greet.js'] }]);

  // Without a worktree, paths resolve from the repository root only, as loom does.
  assert.deepEqual(changedFingerprints({ 'src/greet.js': sha('v2\n') }, { dir: join(repo.root, SPEC), repoRoot: repo.root }), ['src/greet.js']);
  assert.deepEqual(changedFingerprints({ 'src/greet.js': sha('v2\n'), '../escape.js': sha('x') }, { dir: join(repo.root, SPEC), repoRoot: repo.root, worktree: trees.root }), ['../escape.js']);
});
