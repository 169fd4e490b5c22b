import type { PipelineDefinition } from '../pipeline/pipelineDefinition';
import { REVIEW_FEEDBACK_FILE } from './feedbackExport';
import type { ReviewThread } from './reviewComments';

/**
 * The review gate: the stage left only when review-feedback.md exists or passes (loom's
 * review-gate, from the workflow's approval_requires or the schema's own check). While a spec is there, its feature's
 * code takes comments too, to be exported into review-feedback.md.
 */
export const reviewGateOf = (def: PipelineDefinition) =>
  def.stages.find(
    (s) => s.approvalRequires.includes(REVIEW_FEEDBACK_FILE) || s.exit.some((g) => g.type === 'reviewFeedbackPasses' || (g.type === 'fileExists' && g.params.path === REVIEW_FEEDBACK_FILE)),
  );

/** Threads on the feature's code, as opposed to threads on the spec's own files. */
export const isCodeThread = (t: Pick<ReviewThread, 'code'>) => t.code === true;
