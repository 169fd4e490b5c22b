import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseWorkflow } from '../../../src/core/files/workflow';
import { test } from 'node:test';
import { chooseTransition, leavesForward } from '../../../src/core/pipeline/chooseTransition';
import { guardKey, type GuardCall } from '../../../src/core/pipeline/guardCall';
import type { GuardOutcome } from '../../../src/core/pipeline/guards';
import { GuardVerdicts } from '../../../src/core/pipeline/guardVerdicts';
import { buildPipelineDefinition } from '../../../src/core/pipeline/pipelineDefinition';
import { bundledPipelineSchema } from '../../../src/core/pipeline/pipelineSchema';
import type { SpecSnapshot } from '../../../src/core/specdir/specSnapshot';

// The sample's workflow: converge declares convergence-pass (loom's automatic way back), and gates.
const { workflow } = parseWorkflow('workflow.yaml', readFileSync(join(__dirname, '../../../sample/.loom/workflow.yaml'), 'utf8'));
// …with converge running loom 3's convergence-pass, which sends the spec back by itself.
for (const step of workflow!.pipelines!.feature.steps) if (step.id === 'converge') step.validators = ['convergence-pass'];
const def = buildPipelineDefinition(bundledPipelineSchema(), workflow, 'feature');

/** Verdicts where the listed guards fail and every other holds. */
function verdicts(failing: (call: GuardCall) => boolean): GuardVerdicts {
  const v = new GuardVerdicts({} as SpecSnapshot);
  const outcome = (call: GuardCall): GuardOutcome => (failing(call) ? { ok: false, reasons: [guardKey(call)] } : { ok: true, reasons: [] });
  return Object.assign(v, { outcome });
}

const all = verdicts(() => false);
const convergenceFails = verdicts((c) => c.type === 'validatorPasses' && c.params.name === 'convergence-pass');

test('plain Advance goes forward when the way forward holds', () => {
  assert.equal(chooseTransition(def, 'converge', {}, all)?.to, 'verification');
  assert.equal(chooseTransition(def, 'planning', {}, all)?.to, 'analyze-artifacts');
});

test("at converge, plain Advance goes back by itself while convergence-pass fails and rounds are left (loom's run --advance)", () => {
  const way = chooseTransition(def, 'converge', {}, convergenceFails);
  assert.deepEqual([way?.to, way?.kind], ['executing', 'retry']);
  // No rounds left: the way back does not hold either, and the refusal is about going forward.
  const spent = verdicts((c) => (c.type === 'validatorPasses' && c.params.name === 'convergence-pass') || c.type === 'convergenceRoundsLeft');
  assert.equal(chooseTransition(def, 'converge', {}, spent)?.to, 'verification');
});

test('a way back that is not automatic (verification → executing) is taken only when named', () => {
  const blocked = verdicts((c) => c.type === 'reportPasses');
  assert.equal(chooseTransition(def, 'verification', {}, blocked)?.to, 'code-review-request');
  assert.equal(chooseTransition(def, 'verification', { to: 'executing' }, blocked)?.kind, 'retry');
});

test('a named stage picks the way to it, or none; Approve takes the way forward of a stage that has a gate', () => {
  assert.equal(chooseTransition(def, 'planning', { to: 'synced' }, all), undefined);
  assert.equal(chooseTransition(def, 'brainstorming', { approve: true }, all)?.to, 'detail-expansion');
  assert.equal(chooseTransition(def, 'git-worktree', { approve: true }, all), undefined, 'git-worktree has no gate');
  assert.equal(chooseTransition(def, 'review-gate', { approve: true }, all)?.to, 'code-review-response');
});

test('loom writes its stage reports before a move forward or a move that names no way, never before going back', () => {
  assert.equal(leavesForward(def, 'converge', {}), true);
  assert.equal(leavesForward(def, 'converge', { to: 'verification' }), true);
  assert.equal(leavesForward(def, 'converge', { to: 'executing' }), false);
});
