import type { PipelineContext, PipelineEvent } from '../machineTypes';
import { stageOnDisk } from '../machineTypes';
import type { PipelineDefinition } from '../pipelineDefinition';
import { answerWith, type Sender } from './answered';
import { LoomError } from '../../errors';
import { HANDOFFS_DIR } from '../../files/handoff';
import { t } from '../../messages';
import { featureOf } from '../../specdir/specName';
import { specLanguage } from '../../specdir/specLanguage';
import { answeredPoints, renderReviewResponse, REVIEW_RESPONSE_FILE } from '../../review/reviewResponse';
import { reviewFixTaskStates } from '../../review/reviewFixes';
import { ANSWERED_FEEDBACK_KEY, feedbackSha256Of, isReviewProblem, reviewToAnswer } from '../../review/reviewToAnswer';
import { appendReviewRound } from '../../review/reviewRounds';
import { resolveFixedThreads } from '../../review/threadsFixed';
import type { CommandResult } from '../../verification/verificationRun';
import { hasRole, stageWithRole } from '../stageRoles';
import { writeStageHandoff } from './answered';

/** The tasks the review sends back, pending in fix mode with their fix items, through the store (the fix run reads them next). */
export function writeReviewFixes(context: PipelineContext, event: PipelineEvent): void {
  if (event.type !== 'ANSWER_REVIEW') return;
  const review = reviewToAnswer(context.facts);
  if (isReviewProblem(review)) return;
  for (const state of reviewFixTaskStates(context.facts, review.fixes, event.now)) context.store.writeTaskState(context.facts, state, event.now);
}

/**
 * The review answered, once its fixes ran and the tests were re-run: review-response.md in
 * loom's template from the spec as it is now (read afresh under the run lock: the run took a
 * while), each point fixed, declined or left for discussion, the tests' log and sha256 as its
 * evidence; on PASS the stage's handoff, and the code threads it fixed resolved with a reply.
 */
export function recordReviewAnswer(def: PipelineDefinition, context: PipelineContext, event: PipelineEvent, self: Sender): void {
  const { tests } = (event as unknown as { output: { tests?: CommandResult } }).output;
  const answering = context.answering!;
  const now = answering.now;
  answerWith(self, answering.request, () => {
    const stage = stageWithRole(def, 'reviewResponse')?.id ?? '';
    // Between review rounds (at the gate): the fixes answered, the round recorded, and the gate left shut.
    const gate = hasRole(def, stageOnDisk(def, context.facts), 'reviewGate') ? stageOnDisk(def, context.facts) : undefined;
    const response = (() => {
      const fresh = context.store.read(context.facts);
      const review = reviewToAnswer(context.facts);
      if (isReviewProblem(review)) throw new LoomError(review.message, `${fresh.specDir}/${review.file}`);
      const language = specLanguage(fresh);
      const answered = answeredPoints(fresh, review.points, review.fixes, language);
      const fixed = answered.filter((p) => p.answer === 'fixed').length;
      // At code-review-response the response still lists what the rounds at the gate fixed.
      const points = gate ? answered : [...review.earlier, ...answered];
      const verdict = fixed === review.fixes.length && (!tests || tests.exitCode === 0) ? 'PASS' : 'FAIL';
      const evidence = tests ? { command: tests.command, exitCode: tests.exitCode, log: tests.log, sha256: tests.sha256 } : undefined;
      context.store.writeReport(fresh, [
        {
          file: REVIEW_RESPONSE_FILE,
          text: renderReviewResponse({
            feature: featureOf(fresh.name),
            points,
            ...(evidence ? { tests: evidence } : {}),
            verdict,
            language,
            writer: answering.writer,
            now,
            ...(gate ? { atGate: gate } : {}),
          }),
        },
      ]);
      // A round that did not pass (a fix not done, the tests failing) is not recorded: answering again takes it up again, as at code-review-response.
      if (gate) {
        if (verdict === 'PASS') {
          appendReviewRound(fresh, {
            feedback_sha256: feedbackSha256Of(fresh) ?? null,
            threads: review.fixes.flatMap((f) => (f.source.kind === 'thread' ? [f.source.thread.id] : [])),
            answered_at: now,
            writer: answering.writer,
            points: answered.filter((p) => p.answer === 'fixed'),
          });
          resolveFixedThreads(fresh, review.fixes, answering.writer, now);
        }
        return { file: REVIEW_RESPONSE_FILE, points, ...(evidence ? { tests: evidence } : {}), verdict } as const;
      }
      const summary = t('answerReview.handoff.summary', { fixed, points: points.length, command: tests?.command ?? '-', code: tests?.exitCode ?? '-' });
      const handoff =
        verdict === 'PASS'
          ? writeStageHandoff(context, fresh, stage, {
              summary,
              artifacts: [REVIEW_RESPONSE_FILE, ...(tests ? [tests.log] : [])],
              writer: answering.writer,
              now,
              // What was answered: loom fingerprints no review-feedback.md, so the answer keeps its own.
              data: { [ANSWERED_FEEDBACK_KEY]: feedbackSha256Of(fresh) ?? null },
            })
          : undefined;
      if (verdict === 'PASS') resolveFixedThreads(fresh, review.fixes, answering.writer, now);
      return { file: REVIEW_RESPONSE_FILE, ...(handoff ? { handoff: `${HANDOFFS_DIR}/${stage}.json` } : {}), points, ...(evidence ? { tests: evidence } : {}), verdict } as const;
    })();
    const at = stageOnDisk(def, context.facts);
    return { answer: { kind: 'changed', intent: 'answerReview', from: at, to: at, fixes: answering.fixes, ...(answering.result ? { result: answering.result } : {}), response } };
  });
}
