import assert from 'node:assert/strict';
import type { ChatMessage } from '../../../../src/core/executing/dispatch/chatModel';
import type { TestRunner } from '../../../../src/core/executing/evidence/testRunner';
import { MemoryTranscriptStore } from '../../../../src/core/executing/transcripts/transcriptStore';
import type { Answer } from '../../../../src/core/port/answer';
import { request } from '../../../../src/core/port/request';
import { LoomRepository } from '../../../../src/core/repository/loomRepository';
import type { TempRepo } from '../../../helpers/tempRepo';
import { FakePrompts } from '../../executing/helpers/fakes';
import { harness, implementerDone, implementerFixed, PASS, REPORT_PASS, SPEC } from '../../executing/helpers/executingFixture';
import { ScriptedModels, type ScriptedReply } from '../../executing/helpers/scriptedChatModel';
import { GREETING, greetingAtVerification } from '../../verification/greetingRepo';
import { die } from './die';
import { WORKTREE } from './crashRun';

/**
 * The later stages' jobs, each run once over a spec already on disk as a window runs it, for the
 * fault-injection loop (laterStagesCrash.test.ts): Verify, Answer Review and Sync. `crashAt` kills
 * this process (crashRun.ts's `die`) at a step no file write marks: the verification's or the
 * review's test command, or the review fix's implementer and reviewer.
 */
const passing = (crash: boolean): TestRunner => ({
  run: async (command) => {
    if (crash) die();
    return { command, exitCode: 0, output: 'ok 1 - REQ-001-B01 greets by name\n# pass 1\n', timedOut: false, durationMs: 5 };
  },
});

const answered = <A extends Answer>(a: A): A => {
  assert.equal(a.kind, 'changed', a.kind === 'refused' ? `${a.message}: ${a.reasons.join('; ')}` : a.kind);
  return a;
};

// ---- Verify ---------------------------------------------------------------------------------

export const verificationFixture = (): TempRepo => greetingAtVerification();

export async function verifyOnce(root: string, crashAt = ''): Promise<Answer> {
  const spec = new LoomRepository(root).get(GREETING)!;
  return answered(await request(spec, { type: 'verify', verify: { trusted: true, writer: 'crash loop', testCommand: 'node --test', runner: passing(crashAt === 'verify-tests') } }));
}

// ---- Answer Review --------------------------------------------------------------------------

/** The spec's pipeline on to synced, as the sample's feature pipeline goes (answerReview.test.ts). */
const WORKFLOW = `defaults:\n  pipeline_type: feature\n  max_retries: 3\n  timeout_minutes: 30\npipelines:\n  feature:\n    steps:\n      - id: planning\n        next: approved\n        outputs: [plan.md, tasks/, traceability.json]\n      - id: approved\n        gate: human-approval\n        next: executing\n      - id: executing\n        skill: loom-subagent-driven-development\n        next: verification\n        outputs: [test-report.md]\n        config:\n          max_retries: 2\n          timeout_minutes: 30\n      - id: verification\n        next: code-review-request\n        outputs: [verify-report.md]\n      - id: code-review-request\n        next: review-gate\n        outputs: [review-request.md]\n      - id: review-gate\n        gate: human-approval\n        requires: [review-request.md]\n        approval_requires: [review-feedback.md]\n        next: code-review-response\n      - id: code-review-response\n        skill: loom-receiving-code-review\n        next: synced\n        requires: [review-request.md, review-feedback.md]\n        outputs: [review-response.md, handoffs/code-review-response.json]\n      - id: synced\n        skill: loom-index-update\n        requires: [verify-report.md]\n        outputs: []\n`;

const FEEDBACK =
  '# Review feedback: Due dates\n\nReviewer: Mei\n\n- BLOCKER: `src/due.js:1` parseDueDate accepts 2026-13-01; reject months outside 1-12\n- SUGGESTION: `src/format.js` could take a locale later\n\nverdict: CHANGES_REQUESTED\n';

/** T1 and T2 done in the feature worktree, one checkpoint each, and the reviewer's BLOCKER on T1's file at code-review-response. */
export async function reviewFixture(): Promise<TempRepo> {
  const h = harness({ worktree: WORKTREE });
  h.models.script('implementer', ...implementerDone('T1'), ...implementerDone('T2'));
  h.models.script('reviewer', PASS, PASS);
  h.models.script('test-reporter', REPORT_PASS);
  const ran = await h.loop.run(new AbortController().signal);
  assert.equal(ran.outcome, 'completed', ran.message);
  h.repo.write('.loom/workflow.yaml', WORKFLOW);
  h.repo.write(`${SPEC}/verify-report.md`, '# Verification\n\nverdict: PASS\n');
  h.repo.write(`${SPEC}/review-request.md`, '# Code review request: due dates\n\nParses and shows due dates (REQ-001, REQ-002).\n');
  h.repo.write(`${SPEC}/review-feedback.md`, FEEDBACK);
  h.repo.write(`${SPEC}/pipeline.state.json`, { ...(h.repo.json(`${SPEC}/pipeline.state.json`) as object), current_stage: 'code-review-response' });
  return h.repo;
}

export async function answerReviewOnce(root: string, crashAt = ''): Promise<Answer> {
  const models = new ScriptedModels();
  let testRuns = 0;
  // Every answer follows from the conversation: a run started again gets the same ones.
  const implementer = (messages: readonly ChatMessage[]): ScriptedReply => {
    const wrote = messages.some((m) => m.role === 'tool');
    if (crashAt === (wrote ? 'fix-implementer-tools' : 'fix-implementer')) die();
    const [tools, report] = implementerFixed('T1');
    return wrote ? report : tools;
  };
  models.script('implementer', ...Array<ScriptedReply>(20).fill(implementer));
  models.script('reviewer', ...Array<ScriptedReply>(10).fill(() => (crashAt === 'fix-reviewer' ? die() : PASS)));
  const spec = new LoomRepository(root).load().get(SPEC)!;
  return answered(
    await request(spec, {
      type: 'answerReview',
      answer: {
        writer: 'crash loop',
        run: {
          worktree: `${root}/${WORKTREE}`,
          models,
          prompts: new FakePrompts(),
          transcripts: new MemoryTranscriptStore(),
          // The fix's own test run comes first; the second is the review's re-run, the one a crash may stop.
          testRunner: { run: (command, cwd, options) => passing(crashAt === 'review-tests' && ++testRuns === 2).run(command, cwd, options) },
          signal: new AbortController().signal,
          settings: { trusted: true, testCommand: 'npm test' },
        },
      },
    }),
  );
}

// ---- Sync -----------------------------------------------------------------------------------

export function syncFixture(): TempRepo {
  const r = greetingAtVerification();
  r.write(`${GREETING}/plan.md`, '# Plan\n\n## Decisions\n\n- Greeting text lives in `src/greet.js`, not in config\n- Names are not trimmed\n\n## Tasks\n\n- T1 greet by name\n');
  r.write(`${GREETING}/review-response.md`, '# Review response\n\n## 踩坑\n\n1. `node --test` inherits NODE_TEST_CONTEXT from a parent runner\n');
  r.write(`${GREETING}/pipeline.state.json`, { ...(r.json(`${GREETING}/pipeline.state.json`) as object), current_stage: 'synced' });
  return r;
}

export async function syncOnce(root: string): Promise<Answer> {
  return answered(await request(new LoomRepository(root).get(GREETING)!, { type: 'sync' }));
}
