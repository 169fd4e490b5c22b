import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runPipeline } from '../../../src/core/pipelineRun/pipelineRun';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { GREETING, greetingAtVerification } from '../verification/greetingRepo';
import { autopilotPorts } from './autopilotPorts';

// Found by the end-to-end test in VS Code: with review feedback holding a BLOCKER, the run stopped at
// the review gate saying "your approval continues it", which loom's review gate then refused
// (loom 3 pipeline-engine.js checkReviewFeedbackApproval: verdict PASS and no blocking marker).
// The stop says what in the feedback keeps the gate shut.

delete process.env.NODE_TEST_CONTEXT;

const REVIEW_REQUEST = '# Code review request: greeting\n\n## Summary\n\nGreets a person by name (REQ-001).\n\n## Verification\n\nverify-report.md: PASS.\n';

function atReviewGate(feedback?: string) {
  const r = greetingAtVerification();
  r.write(`${GREETING}/review-request.md`, REVIEW_REQUEST);
  if (feedback) r.write(`${GREETING}/review-feedback.md`, feedback);
  r.write(`${GREETING}/pipeline.state.json`, { ...(r.json(`${GREETING}/pipeline.state.json`) as object), current_stage: 'review-gate' });
  return r;
}

async function stopAt(root: string) {
  const spec = new LoomRepository(root).get(GREETING)!;
  const ports = autopilotPorts(spec, async () => assert.fail('no model at the review gate'));
  return runPipeline(spec, ports);
}

test('feedback with a BLOCKER: the run stops at the review gate naming what keeps it shut', async () => {
  const r = atReviewGate('# Review feedback\n\n- BLOCKER: greet() must reject an empty name\n\nverdict: FAIL\n');
  try {
    const stop = await stopAt(r.root);
    assert.equal(stop.reason, 'review-gate');
    assert.match(stop.message, /review feedback does not pass yet \(.*verdict: FAIL.*BLOCKER.*\); its BLOCKERs are answered/);
    assert.equal(r.json(`${GREETING}/pipeline.state.json`).current_stage, 'review-gate');
  } finally {
    r.dispose();
  }
});

test('no feedback yet, or feedback that passes: the reviewer’s feedback and the person’s approval continue it', async () => {
  for (const feedback of [undefined, '# Review feedback\n\n- SUGGESTION: name it hello\n\nverdict: PASS\n']) {
    const r = atReviewGate(feedback);
    try {
      const stop = await stopAt(r.root);
      assert.equal(stop.reason, 'review-gate');
      assert.match(stop.message, /the reviewer’s review-feedback\.md and your approval continue it/);
    } finally {
      r.dispose();
    }
  }
});
