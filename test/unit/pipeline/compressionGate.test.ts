import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TransitionRefusedError } from '../../../src/core/errors';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { SPEC, state, TempRepo } from '../../helpers/tempRepo';
import { advance, approve } from '../../helpers/intents';

/**
 * loom 3's context-compression gate (src/core/pipeline-engine.js advance({ compressionConfirmed })
 * and `_requiresStageCompression(step, stage)`: the step's `outputs` include
 * `handoffs/<stage>.json`). Run on these files, loom run --advance answered "Stage "…" requires
 * context compression before advancing." until --compression-confirmed was given; approve (a
 * human-approval gate) and completing the last step asked nothing.
 */
const WORKFLOW = `pipelines:
  feature:
    steps:
      - id: detail-expansion
        outputs: [requirements.json, handoffs/detail-expansion.json]
      - id: review
        gate: human-approval
        outputs: [handoffs/review.json]
      - id: build
        outputs: [specs/<date+feature>/handoffs/build.json]
      - id: verification
        outputs: [handoffs/verification.json]
`;

function repoAt(stage: string) {
  const r = new TempRepo();
  r.write('.loom/workflow.yaml', WORKFLOW);
  r.write(`${SPEC}/pipeline.state.json`, state(stage));
  r.write(`${SPEC}/requirements.json`, { requirements: [] });
  r.write(`${SPEC}/verify-report.md`, 'verdict: PASS\n');
  for (const id of ['detail-expansion', 'review', 'build', 'verification']) r.write(`${SPEC}/handoffs/${id}.json`, { stage: id, status: 'done', summary: id });
  return { r, spec: () => new LoomRepository(r.root).load().get(SPEC)! };
}

const NOW = '2026-11-29T10:00:00.000Z';

describe('the context-compression gate, as loom 3 decides it', () => {
  it('is a fact of the step: outputs naming handoffs/<stage>.json as written', () => {
    const { r, spec } = repoAt('detail-expansion');
    assert.deepEqual(
      spec().definition.stages.map((s) => [s.id, s.compressionRequired]),
      [
        ['detail-expansion', true],
        ['review', true],
        // loom compares the output as written: a path under specs/<date+feature>/ does not count.
        ['build', false],
        ['verification', true],
      ],
    );
    r.dispose();
  });

  it('refuses to move on without the caller’s word, writing nothing, then moves with it', () => {
    const { r, spec } = repoAt('detail-expansion');
    const before = r.read(`${SPEC}/pipeline.state.json`);
    const next = spec().next()[0];
    assert.deepEqual([next.to, next.ready, next.compression.length], ['review', true, 1], 'ready: only the caller’s word is missing');
    assert.equal(spec().status().next[0].compression_required, true);
    assert.throws(
      () => advance(spec(), { confirm: true, now: NOW }),
      (e: TransitionRefusedError) =>
        e.details.codes?.includes('compression-required') === true &&
        e.reasons.length === 1 &&
        /^detail-expansion requires context compression before moving on \(loom 3: its step's outputs include handoffs\/detail-expansion\.json\)/.test(e.reasons[0]),
    );
    assert.equal(r.read(`${SPEC}/pipeline.state.json`), before);
    assert.deepEqual(advance(spec(), { confirm: true, compressionConfirmed: true, now: NOW }).to, 'review');
    r.dispose();
  });

  it('asks nothing to pass a human-approval gate (loom’s approve) or to complete the last step', () => {
    const gate = repoAt('review');
    assert.equal(approve(gate.spec(), { now: NOW }).to, 'build');
    gate.r.dispose();
    const build = repoAt('build');
    assert.equal(advance(build.spec(), { confirm: true, now: NOW }).to, 'verification', 'build names its handoff under specs/<date+feature>/');
    const done = advance(build.spec(), { confirm: true, now: NOW });
    assert.equal(done.complete, true);
    build.r.dispose();
  });
});
