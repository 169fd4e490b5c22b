import type { StageDefinition } from '../pipeline/pipelineDefinition';
import { openThreads, type ReviewComments, type ReviewThread } from './reviewComments';

/** The open threads on the files a stage produces or has approved: what leaving it would leave unanswered. */
export function openThreadsOnStage(stage: Pick<StageDefinition, 'outputs' | 'approvalRequires'>, comments: ReviewComments): ReviewThread[] {
  const files = [...stage.outputs, ...stage.approvalRequires];
  return openThreads(comments).filter((t) => files.some((f) => f === t.file || (f.endsWith('/') && t.file.startsWith(f))));
}

export { threadPlace } from './openThreads';
