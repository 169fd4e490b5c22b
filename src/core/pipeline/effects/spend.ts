import { addDrafting } from '../../credits/draftingSpend';
import { TOKEN_USAGE_KEY } from '../../executing/transcripts/tokenLedger';
import type { PipelineState } from '../../files/pipelineState';
import { stageOnDisk, type PipelineContext, type PipelineEvent } from '../machineTypes';
import type { PipelineDefinition } from '../pipelineDefinition';
import { answerWith, type Sender } from './answered';

/**
 * A drafting turn's spend kept (`recordSpend`): its requests added to the ledger of the state as
 * the request read it under the run lock (Run Tasks or another turn may have added to it since
 * the turn began), written through the store with the request's `now` as the ledger's and the
 * state's `updated_at`. Only `metadata.token_usage` changes, so loom reads the state as before. A
 * spec without a state is answered with the spend, nothing written; a corrupt state never gets
 * here (the machine's unreadable state refuses it, naming the file).
 */
export function recordSpend(def: PipelineDefinition, context: PipelineContext, event: PipelineEvent, self: Sender): void {
  if (event.type !== 'RECORD_SPEND') return;
  answerWith(self, event.id, () => {
    const at = stageOnDisk(def, context.facts);
    const { usage, spend } = addDrafting(context.state?.metadata, event.spend, event.now);
    if (!context.state) return { answer: { kind: 'changed', intent: 'recordSpend', from: at, to: at, spend, kept: false } };
    const state: PipelineState = { ...context.state, metadata: { ...context.state.metadata, [TOKEN_USAGE_KEY]: usage }, updated_at: event.now };
    context.store.writeState(context.facts, state, event.now);
    return { answer: { kind: 'changed', intent: 'recordSpend', from: at, to: at, state, spend, kept: true }, state };
  });
}
