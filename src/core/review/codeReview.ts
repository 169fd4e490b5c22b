import type { PipelineDefinition } from '../pipeline/pipelineDefinition';
import { stageWithRole } from '../pipeline/stageRoles';
import type { ReviewThread } from './reviewComments';

/**
 * The review gate: the stage left only once review-feedback.md is there (stageRoles recognises it
 * from the step's data). While a spec is there, its feature's code takes comments too, to be
 * exported into review-feedback.md.
 */
export const reviewGateOf = (def: PipelineDefinition) => stageWithRole(def, 'reviewGate');

/** Threads on the feature's code, as opposed to threads on the spec's own files. */
export const isCodeThread = (t: Pick<ReviewThread, 'code'>) => t.code === true;
