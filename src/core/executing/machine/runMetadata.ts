import type { ExecutionMode, ModeTrigger } from '../executionMode';
import type { TokenUsage } from '../transcripts/tokenLedger';
import type { BreakerChoice, BreakerReason } from './circuitBreaker';
import type { TestReporterRecord } from './testReporterRecord';

/**
 * What a run of the executing stage keeps in pipeline.state.json `metadata`, beside loom's fields
 * (loom's store keeps `metadata` as it is): the mode it chose, the tokens its requests used, the
 * newest circuit breaker with the person's choice, and the test reporter's progress. A key set to
 * undefined is removed; every other key of the record is kept.
 */
export interface RunMetadata {
  executing_mode?: { mode: ExecutionMode; triggers: ModeTrigger[]; chosen_at: string };
  /** TOKEN_USAGE_KEY (transcripts/tokenLedger.ts). */
  token_usage?: TokenUsage;
  /** The newest circuit breaker, a task's or the test reporter's, and the person's choice once made. */
  circuit_breaker?: { task: string; reason: BreakerReason; opened_at: string; choice?: BreakerChoice; chosen_at?: string };
  /** TEST_REPORTER_KEY (testReporterRecord.ts). */
  test_reporter?: TestReporterRecord;
}

/**
 * How a run keeps its metadata: never written by the run itself, but by the spec's actor that
 * started it (pipeline/effects/runRecord.ts), through the actor's store, under the lock the run's
 * request holds for the whole run, with that request's `now`. Throws what the write met (a state
 * file that became corrupt is named, and left untouched).
 */
export type RunRecorder = (metadata: RunMetadata) => void;
