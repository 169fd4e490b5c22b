import type { RunMetadata, RunRecorder } from '../../executing/machine/runMetadata';
import type { PipelineState } from '../../files/pipelineState';
import type { SpecSnapshot } from '../../specdir/specSnapshot';
import { assertStateWritable } from '../../store/stateStore';
import type { StateStorePort } from '../machineTypes';
import { jobNow } from './answered';

/**
 * What a run of the executing stage keeps in the spec's state (RunMetadata: its mode, its tokens,
 * the newest breaker and the person's choice, the test reporter's progress), written for it by
 * the spec's actor that started it (Run Tasks, Answer Review's fix run): through the actor's
 * store, read afresh each time (the run's own writes and the person's may have come since), under
 * the run lock the request holds as the run's lease, with the request's `now` as the state's
 * `updated_at` and progress.md's. The run's values keep the times the run gave them (a breaker's
 * `opened_at` is the one its task state records). `now` is undefined only through a bug, said when
 * the run first writes.
 */
export function runRecorder(store: StateStorePort, facts: SpecSnapshot, now: string | undefined, job: string): RunRecorder {
  return (metadata) => {
    const at = jobNow(now, job);
    store.updateState(facts, (fresh) => withRunMetadata(fresh, metadata, at), at);
  };
}

/**
 * The state `fresh` records with the run's keys set (undefined removes one) and every other key
 * kept, as loom's store keeps `metadata`; undefined for a spec without a state (nothing to write
 * in). A corrupt state throws CorruptStateError naming the file, which is never overwritten.
 */
export function withRunMetadata(fresh: SpecSnapshot, metadata: RunMetadata, now: string): PipelineState | undefined {
  assertStateWritable(fresh);
  if (!fresh.state) return undefined;
  const next: Record<string, unknown> = { ...fresh.state.metadata };
  for (const [key, value] of Object.entries(metadata)) {
    if (value === undefined) delete next[key];
    else next[key] = value;
  }
  return { ...fresh.state, metadata: next, updated_at: now };
}
