// loom 3 keeps the key: its state store (state-store.js completeCurrentStage, updateMetadata) writes
// `metadata` back as it read it; checked by hand with `loom run --advance` on a synced spec with a baseline.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { BASELINE_KEY, recordedBaseline } from '../../../src/core/drift/baseline';
import { SPEC, state, TempRepo } from '../../helpers/tempRepo';
import { git } from '../executing/helpers/gitRepos';

const NOW = '2026-12-01T10:00:00.000Z';
const WORKFLOW = 'pipelines:\n  feature:\n    steps:\n      - { id: executing, next: synced }\n      - { id: synced }\n';

function repoAt(stage: string): TempRepo {
  const r = new TempRepo('loom-baseline-');
  r.write('.loom/workflow.yaml', WORKFLOW);
  r.write(`${SPEC}/pipeline.state.json`, state(stage));
  r.write('src/login.ts', 'export const login = 1;\n');
  git(r.root, 'init', '-q', '-b', 'main');
  git(r.root, 'add', '-A');
  git(r.root, 'commit', '-qm', 'init');
  return r;
}

test('reaching synced records the commit the code is at in the state metadata, as the actor writes it', async () => {
  const r = repoAt('executing');
  try {
    const head = git(r.root, 'rev-parse', 'HEAD').trim();
    const spec = new LoomRepository(realpathSync(r.root)).load().get(SPEC)!;
    const answer = await spec.request({ type: 'advance' }, { now: NOW, confirm: true });
    assert.equal(answer.kind, 'changed', JSON.stringify(answer));
    const s = r.json(`${SPEC}/pipeline.state.json`);
    assert.equal(s.current_stage, 'synced');
    assert.deepEqual(s.metadata[BASELINE_KEY], { commit: head, recorded_at: NOW, source: 'synced' });
    assert.deepEqual(recordedBaseline(s), { commit: head, recorded_at: NOW, source: 'synced' });
  } finally {
    r.dispose();
  }
});

test('a move that does not reach synced records no baseline', async () => {
  const r = repoAt('executing');
  try {
    r.write('.loom/workflow.yaml', 'pipelines:\n  feature:\n    steps:\n      - { id: executing, next: verification }\n      - { id: verification, next: synced }\n      - { id: synced }\n');
    const spec = new LoomRepository(realpathSync(r.root)).load().get(SPEC)!;
    const answer = await spec.request({ type: 'advance' }, { now: NOW, confirm: true });
    assert.equal(answer.kind, 'changed', JSON.stringify(answer));
    const s = r.json(`${SPEC}/pipeline.state.json`);
    assert.equal(s.current_stage, 'verification');
    assert.equal(Object.hasOwn(s.metadata, BASELINE_KEY), false);
  } finally {
    r.dispose();
  }
});
