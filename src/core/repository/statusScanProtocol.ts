import type { RecordedInput } from '../fs/readRecorder';
import type { Language } from '../messages';
import type { SpecStatus } from './specPipeline';

/**
 * What a helper thread of `loom-vscode status` is asked (statusScanWorker.ts): the spec
 * directories to evaluate, shared with the main thread and the other helpers through `claims`
 * (a ClaimQueue over `dirs`), each claimed as `owner`.
 */
export interface StatusScanRequest {
  root: string;
  specRoots: readonly string[];
  language: Language;
  dirs: readonly string[];
  /** Files every status depends on that no spec's evaluation reads itself (the workflow), with what the main thread found there before the scan. */
  extraInputs: [string, RecordedInput][];
  claims: SharedArrayBuffer;
  owner: number;
  /** The cache's version, when there is a cache to keep the statuses in: each is recorded with what it read, and its entry made (evaluationEntry). */
  cacheVersion?: string;
}

/** A helper's answer for `dirs[i]`: the status and the cache's entry for it (if kept), or a failure the main thread then meets itself. */
export type StatusScanMessage = { i: number; status: SpecStatus; entry?: string } | { i: number; failed: string };
