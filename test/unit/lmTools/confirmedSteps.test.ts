import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfirmedSteps } from '../../../src/host/lmTools/confirmedSteps';

const SPEC = '/repo/specs/2026-11-29+login';

test('a confirmation counts for the step it named, once', () => {
  const c = new ConfirmedSteps();
  c.ask('loom_advance', SPEC, { from: 'planning', to: 'analyze-artifacts' });
  assert.equal(c.take('loom_advance', SPEC, { from: 'planning', to: 'analyze-artifacts' }), true);
  assert.equal(c.take('loom_advance', SPEC, { from: 'planning', to: 'analyze-artifacts' }), false, 'used up');
});

test('the spec moved meanwhile: the confirmation is not carried over to another step, and is used up', () => {
  const c = new ConfirmedSteps();
  c.ask('loom_advance', SPEC, { from: 'planning', to: 'analyze-artifacts' });
  assert.equal(c.take('loom_advance', SPEC, { from: 'analyze-artifacts', to: 'approved' }), false);
  assert.equal(c.take('loom_advance', SPEC, { from: 'planning', to: 'analyze-artifacts' }), false);
});

test('nothing asked, or asked for another spec or by another tool: not confirmed', () => {
  const c = new ConfirmedSteps();
  assert.equal(c.take('loom_advance', SPEC, { from: 'planning', to: 'analyze-artifacts' }), false);
  c.ask('loom_approve_gate', SPEC, { from: 'planning', to: 'analyze-artifacts' });
  c.ask('loom_advance', `${SPEC}-other`, { from: 'planning', to: 'analyze-artifacts' });
  assert.equal(c.take('loom_advance', SPEC, { from: 'planning', to: 'analyze-artifacts' }), false);
  assert.equal(c.take('loom_approve_gate', SPEC, { from: 'planning', to: 'analyze-artifacts' }), true);
});

test('a newer question replaces the older one, and forget drops it', () => {
  const c = new ConfirmedSteps();
  c.ask('loom_advance', SPEC, { from: 'converge', to: 'verification' });
  c.ask('loom_advance', SPEC, { from: 'converge', to: 'executing' });
  assert.equal(c.take('loom_advance', SPEC, { from: 'converge', to: 'verification' }), false);
  c.ask('loom_advance', SPEC, { from: 'converge', to: 'executing' });
  c.forget('loom_advance', SPEC);
  assert.equal(c.take('loom_advance', SPEC, { from: 'converge', to: 'executing' }), false);
});
