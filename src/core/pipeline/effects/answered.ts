import type { Answer } from '../../port/answer';
import type { PipelineState } from '../../files/pipelineState';
import { WritableHandoffSchema } from '../../files/handoff';
import type { SpecSnapshot } from '../../specdir/specSnapshot';
import type { PipelineContext, PipelineEvent } from '../machineTypes';

/** What an effect tells the machine when it is done: the answer, the state it wrote, or the error it met. */
export type Sender = { send: (event: PipelineEvent) => void };

/**
 * Runs an effect's writes and sends the machine its answer (with the state it wrote) or the error
 * it met, as `ANSWERED`, which the machine emits: an effect never throws into the machine.
 */
export function answerWith(self: Sender, id: string | undefined, work: () => { answer: Answer; state?: PipelineState }): void {
  let out: { answer: Answer; state?: PipelineState };
  try {
    out = work();
  } catch (error) {
    self.send({ type: 'ANSWERED', id, error });
    return;
  }
  self.send({ type: 'ANSWERED', id, answer: out.answer, ...(out.state ? { state: out.state } : {}) });
}

/**
 * A stage's handoff written by the work the actor ran there (verification, the review answered),
 * read afresh after the report it names was written, through the store.
 */
export function writeStageHandoff(
  context: PipelineContext,
  fresh: SpecSnapshot,
  stage: string,
  h: { summary: string; artifacts: string[]; writer: string; now: string; data?: Record<string, unknown> },
) {
  const handoff = WritableHandoffSchema().parse({ ...h.data, stage, task_id: stage, status: 'done', summary: h.summary, artifacts: h.artifacts, written_at: h.now, written_by: h.writer });
  return context.store.writeHandoff(context.store.read(fresh), stage, handoff, h.now);
}

/**
 * The time of the request a job answers (every effect records its request's `now`, never the
 * clock's): missing only through a bug, said plainly.
 */
export function jobNow(at: string | undefined, job: string): string {
  if (at === undefined) throw new Error(`${job} ended without the time of the request it answers`);
  return at;
}
