import assert from 'node:assert/strict';
import test from 'node:test';
import { reviewGateOf } from '../../../src/core/review/codeReview';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { plannedSpec, SPEC, TempRepo } from '../../helpers/tempRepo';

test('the review gate is the stage left only when review-feedback.md passes, with or without a workflow', () => {
  const r = new TempRepo();
  try {
    plannedSpec(r);
    const spec = new LoomRepository(r.root).load().get(SPEC)!;
    assert.equal(reviewGateOf(spec.definition)?.id, 'review-gate');
  } finally {
    r.dispose();
  }
});
