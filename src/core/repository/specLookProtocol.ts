import type { Language } from '../messages';
import type { CacheCounts } from '../specdir/specCache';
import type { SpecEvaluation } from './specEvaluation';

/** What the look's worker process is asked: the specs of one repository, and where the caches are. */
export interface SpecLookRequest {
  root: string;
  specRoots: readonly string[];
  language: Language;
  dirs: readonly string[];
  /** The per-spec caches' folder and the reader's version (caches of another build are rebuilt); none: no caches. */
  cache?: { dir: string; version: string };
}

/**
 * Told to the worker after its request: specs it need not look at, looked at meanwhile by the
 * extension host (their looks kept in the evaluation cache).
 */
export interface SpecLookSkip {
  kind: 'skip';
  dirs: readonly string[];
}

/** What the worker tells, spec by spec, then once at the end. */
export type SpecLookMessage =
  | { kind: 'look'; dir: string; evaluation: SpecEvaluation }
  | { kind: 'unreadable'; dir: string; message: string }
  /** A file larger than the worker parses: the spec is left to the caller. */
  | { kind: 'tooLarge'; dir: string; file: string; bytes: number }
  | { kind: 'failed'; specDir: string; part: 'diagnostics' | 'validators'; message: string; stack?: string }
  /**
   * Not from the worker: it stopped while looking at this spec (out of memory on its files, say).
   * The spec is left to the caller; a new worker process goes on with the specs after it (lookInWorker).
   */
  | { kind: 'abandoned'; dir: string; message: string }
  /**
   * `pid`, `peakMB` and `cpuMs`: the worker process, its peak resident memory and the CPU time it
   * used (its own, not the extension host's); `background`: whether it ran at the lowest priority.
   */
  | { kind: 'done'; parses?: CacheCounts; evaluations?: CacheCounts; pid?: number; peakMB?: number; cpuMs?: number; background?: boolean };
