import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadSpec } from '../../../src/core/specdir/loadSpec';
import { staleHandoffs } from '../../../src/core/specdir/handoffStaleness';
import { writePipelineState } from '../../../src/core/store/stateStore';
import { plannedSpec, SPEC, state, TempRepo } from '../../helpers/tempRepo';

// Issue #11 point 3: handoffs loom writes are valid handoffs. state-store.js readAllHandoffs and
// findStaleHandoffs read any object; _buildHandoffBlock shows `-` for a missing summary.
// commands/handoff.js writes no `summary` without --summary; loom's compaction hook writes
// `status: "pending"`.

test('a handoff written by `loom handoff write` without --summary, and a pending one, are read, counted for staleness and listed in progress.md', () => {
  const r = new TempRepo();
  try {
    plannedSpec(r);
    r.write(`${SPEC}/pipeline.state.json`, state('executing'));
    // As `loom handoff write --spec-dir D --stage planning` writes it (task_id = the stage).
    r.write(`${SPEC}/handoffs/planning.json`, {
      status: 'done',
      stage: 'planning',
      task_id: 'planning',
      basis_fingerprints: { 'plan.md': r.sha256(`${SPEC}/plan.md`), 'spec.md': r.sha256(`${SPEC}/spec.md`) },
      artifact_fingerprints: {},
      written_at: '2026-11-29T09:00:00.000Z',
    });
    r.write(`${SPEC}/handoffs/executing.json`, { stage: 'executing', status: 'pending', summary: 'context compacted before T2', written_at: '2026-11-29T09:10:00.000Z' });

    const snapshot = loadSpec(r.root, r.path(SPEC));
    assert.deepEqual([...snapshot.handoffs.keys()].sort(), ['detail-expansion', 'executing', 'planning']);
    assert.deepEqual(
      snapshot.diagnostics.filter((d) => d.file.includes('handoffs/')),
      [],
    );
    assert.deepEqual(staleHandoffs(snapshot), []);

    writePipelineState(snapshot, snapshot.state!, '2026-11-29T09:20:00.000Z');
    const progress = r.read(`${SPEC}/progress.md`);
    assert.match(progress, /\| `planning` \| done \| - \| - \|/);
    assert.match(progress, /\| `executing` \| pending \| context compacted before T2 \| - \|/);

    r.write(`${SPEC}/spec.md`, '# Login, changed\n');
    assert.deepEqual(staleHandoffs(loadSpec(r.root, r.path(SPEC))), [{ handoff: 'handoffs/planning.json', changed: ['spec.md'] }]);
  } finally {
    r.dispose();
  }
});
