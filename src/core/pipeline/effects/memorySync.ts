import { syncFeatureMemory } from '../../memory/featureMemory';
import { specLanguage } from '../../specdir/specLanguage';
import { stageOnDisk, type PipelineContext, type PipelineEvent } from '../machineTypes';
import type { PipelineDefinition } from '../pipelineDefinition';
import { answerWith, type Sender } from './answered';

/** How long a sync waits for another writer of loom's memory store (an agent's loom_add_memory). */
const MEMORY_LOCK_WAIT_MS = 5_000;

/**
 * Synced by Loom: the feature's decisions and pitfalls into loom's memory through
 * loom_add_memory's writer, while the request holds the spec's run lock (the store's own lock
 * is taken inside); what the store holds already is not added twice.
 */
export function syncMemory(def: PipelineDefinition, context: PipelineContext, event: PipelineEvent, self: Sender): void {
  if (event.type !== 'SYNC') return;
  answerWith(self, event.id, () => {
    const stage = stageOnDisk(def, context.facts);
    const memory = syncFeatureMemory(context.facts, specLanguage(context.facts), event.now, MEMORY_LOCK_WAIT_MS);
    return { answer: { kind: 'changed', intent: 'sync', from: stage, to: stage, memory } };
  });
}
