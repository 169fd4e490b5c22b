import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfirmedSteps } from '../../../src/host/lmTools/confirmedSteps';

const SPEC = '/repo/specs/2026-11-29+login';

test('the step a person was asked about goes with the intent once', () => {
  const c = new ConfirmedSteps();
  c.ask('loom_advance', SPEC, { from: 'planning', to: 'analyze-artifacts' });
  assert.deepEqual(c.take('loom_advance', SPEC), { from: 'planning', to: 'analyze-artifacts' });
  assert.equal(c.take('loom_advance', SPEC), undefined, 'used up');
});

test('nothing asked, or asked for another spec or by another tool: no word goes with the intent', () => {
  const c = new ConfirmedSteps();
  assert.equal(c.take('loom_advance', SPEC), undefined);
  c.ask('loom_approve_gate', SPEC, { from: 'planning', to: 'analyze-artifacts' });
  c.ask('loom_advance', `${SPEC}-other`, { from: 'planning', to: 'analyze-artifacts' });
  assert.equal(c.take('loom_advance', SPEC), undefined);
  assert.deepEqual(c.take('loom_approve_gate', SPEC), { from: 'planning', to: 'analyze-artifacts' });
});

test('a newer question replaces the older one, and forget drops it', () => {
  const c = new ConfirmedSteps();
  c.ask('loom_advance', SPEC, { from: 'converge', to: 'verification' });
  c.ask('loom_advance', SPEC, { from: 'converge', to: 'executing' });
  assert.deepEqual(c.take('loom_advance', SPEC), { from: 'converge', to: 'executing' });
  c.ask('loom_advance', SPEC, { from: 'converge', to: 'executing' });
  c.forget('loom_advance', SPEC);
  assert.equal(c.take('loom_advance', SPEC), undefined);
});
