import { relative, sep } from 'node:path';
import { isNormalAbsolute } from '../fs/paths';
import { fileStamp, inputAt, recordReads, unchangedInput, type RecordedInput } from '../fs/readRecorder';
import { hexDigest } from '../nodeModules';
import { DelayedWrites } from './delayedWrites';
import { cacheKey, type SpecCacheStore } from './specCache';

/** Bumped when the shape of an evaluation file changes: older files are then rebuilt. */
const EVALUATION_FORMAT = 4;

/**
 * A file modified this close to the evaluation may change again within the same timestamp tick
 * (a coarse clock), keeping its stamp: such a result is used but not kept (git's "racily clean").
 */
const RACY_MS = 2000;

/**
 * One input as stored: `[path]` for a file (its stamp is in the header's `stamps`), `[path, 'dir']`
 * for a folder, `[path, 'dir', names, mtimeMs?, ctimeMs?]` for one that was listed (its times when
 * they were not racy), `[path, 'missing' | 'other']`.
 */
type StoredFile = [string];
type StoredInput = StoredFile | [string, 'dir'] | [string, 'dir', string[]] | [string, 'dir', string[], number, number] | [string, 'missing' | 'other'];

const isStoredFile = (stored: StoredInput): stored is StoredFile => stored.length === 1;

/**
 * An evaluation file is two lines: this header, as JSON, then the result's JSON, which is parsed
 * only when every input is unchanged, and trusted only when its text has the header's `sum`.
 */
interface EvaluationHeader {
  format: number;
  version: string;
  dir: string;
  /** What else the result depends on besides files (the display language of its sentences). */
  context: string;
  inputs: StoredInput[];
  /**
   * The SHA-1 of the files' stamps (size, modification and change time of each `[path]` input, in
   * order, as 64-bit floats): one hash, not three numbers written out per file. A status run keeps
   * fifty inputs per spec at a thousand specs, and their numbers were half of its cache file (6.8 MB)
   * and most of the time spent writing it; a file is still checked by its own stat.
   */
  stamps: string;
  /** The SHA-1 of the result's text. */
  sum: string;
}

/**
 * The checksum of a result's text. The same build wrote it (the version says so), so its shape is
 * the one this build reads; what can go wrong is the text itself (a disk, a hand, another tool),
 * and a checksum tells that for a fraction of what checking the shape of a thousand results cost a reload.
 */
const checksum = (text: string) => hexDigest('sha1', text);

/** The hash of files' stamps, three 64-bit floats each (size, mtimeMs, ctimeMs), as `stamps` keeps it. */
const stampsHash = (stamps: Float64Array, count: number) => hexDigest('sha1', new Uint8Array(stamps.buffer, stamps.byteOffset, count * 3 * Float64Array.BYTES_PER_ELEMENT));

/** An evaluation with everything it read (recordEvaluation), which evaluationEntry turns into the text the cache keeps. */
interface RecordedEvaluation<T> {
  value: T;
  inputs: Map<string, RecordedInput>;
  /** When the evaluation began (epoch ms): a file changed a moment before it may change again unseen (RACY_MS). */
  startedAt: number;
  /** Whether the result depends on files only (nothing unrecorded, no `dependsOnMore()`). */
  kept: boolean;
}

/**
 * Files a result depends on that its evaluation does not read itself (the workflow, read once per
 * repository): their paths, or what `extraInputsAt` found there before the evaluations began
 * (one stat per file for a run over every spec, not one per spec).
 */
export type ExtraInputs = readonly string[] | ReadonlyMap<string, RecordedInput>;

/** What the `paths` hold now, taken once before evaluating many specs that depend on them. */
export const extraInputsAt = (paths: readonly string[]): ReadonlyMap<string, RecordedInput> => new Map(paths.map((p) => [p, inputAt(p)]));

/**
 * Runs `evaluate` (synchronously), recording everything it reads (recordReads), and `extraInputs`.
 * `evaluate` calls `dependsOnMore()` when its result depends on more than files.
 */
function recordEvaluation<T>(evaluate: (dependsOnMore: () => void) => T, extraInputs: ExtraInputs = [], now: () => number = Date.now): RecordedEvaluation<T> {
  const startedAt = now();
  const extras = Array.isArray(extraInputs) ? extraInputsAt(extraInputs) : (extraInputs as ReadonlyMap<string, RecordedInput>);
  let kept = true;
  const recorded = recordReads(() => evaluate(() => (kept = false)));
  for (const [p, input] of extras) if (!recorded.inputs.has(p)) recorded.inputs.set(p, input);
  return { value: recorded.value, inputs: recorded.inputs, startedAt, kept: kept && !recorded.unrecorded };
}

/**
 * Whatever a spec's evaluation read, it is kept here with its result: one file per spec directory
 * in the per-spec cache's store (`<hash of the directory>.evaluation`), never in the repository.
 * The inputs are recorded while the evaluation runs (recordReads): every file it read or
 * stat-ed, every folder it listed and every path it found missing, with its size, modification
 * and change time. The result is reused only while each of them is unchanged, the context (the
 * display language) is the same and the reader is the same version (`version` names the build:
 * a result is of the shape that build wrote); an evaluation file that is unreadable, truncated,
 * of another format or version, about another directory, or whose result's text does not have
 * its checksum, is counted as rejected and rebuilt, never trusted.
 */
export class EvaluationCache<T> {
  /** Evaluation files rejected since the cache was made (corrupt, of another build or directory). */
  rejected = 0;
  /** Evaluation files written since the cache was made. */
  get written(): number {
    return this.writes.written;
  }
  readonly counts = { hits: 0, misses: 0 };

  constructor(
    private readonly store: SpecCacheStore,
    /** The evaluator's version: results of another build are rebuilt. */
    readonly version: string,
    /**
     * `kind`: what the results are, which names their files (`<hash>.<kind>`): two kinds of result
     * in one store keep apart. `writeDelayMs`: evaluation files are written this long after they
     * are made (the extension host, where a reload's look at the specs that changed meanwhile is
     * what the window waits for; `flush()` writes them now).
     */
    private readonly options: { now?: () => number; kind?: string; writeDelayMs?: number } = {},
  ) {
    this.writes = new DelayedWrites((key, data) => this.store.write(key, data), options.writeDelayMs);
  }

  private readonly writes: DelayedWrites;

  /** Writes the evaluation files still waiting (on deactivation, say). */
  flush(): void {
    this.writes.flush();
  }

  private key(dir: string): string {
    return evaluationKey(dir, this.options.kind);
  }

  /**
   * The spec's evaluation: the stored one when everything it read is unchanged, else `evaluate()`
   * run now (synchronously, its reads recorded) and stored. `extraInputs` are files the result
   * depends on that `evaluate` does not read itself (the workflow, read once per repository).
   * `evaluate` calls `dependsOnMore()` when its result depends on more than files (whether
   * another process holding the spec's run lock is alive): that result is not kept.
   */
  get(dir: string, context: string, evaluate: (dependsOnMore: () => void) => T, extraInputs: ExtraInputs = []): T {
    const stored = this.read(dir, context);
    if (stored !== undefined) {
      this.counts.hits++;
      return stored;
    }
    return this.evaluate(dir, context, evaluate, extraInputs);
  }

  /** `get` without looking for a kept evaluation first (the caller found none with `stored`). */
  evaluate(dir: string, context: string, evaluate: (dependsOnMore: () => void) => T, extraInputs: ExtraInputs = []): T {
    const recorded = recordEvaluation(evaluate, extraInputs, this.options.now);
    this.counts.misses++;
    const entry = evaluationEntry(this.version, dir, context, recorded);
    if (entry !== undefined) this.writes.put(this.key(dir), entry);
    return recorded.value;
  }

  /**
   * The stored evaluation, when everything it read is unchanged (counted as a hit); undefined
   * otherwise, and nothing is evaluated: whoever evaluates it then counts the miss.
   */
  stored(dir: string, context: string): T | undefined {
    const stored = this.read(dir, context);
    if (stored !== undefined) this.counts.hits++;
    return stored;
  }

  /** Forgets a spec whose directory is gone. */
  forget(dir: string): void {
    this.writes.drop(this.key(dir));
    try {
      this.store.remove(this.key(dir));
    } catch {
      // Nothing to remove.
    }
  }

  private read(dir: string, context: string): T | undefined {
    const key = this.key(dir);
    const data = this.writes.read(key, () => this.store.read(key));
    if (!data) return undefined;
    const cut = data.indexOf('\n');
    const header = cut < 0 ? 'rejected' : parseHeader(data.slice(0, cut), this.version, dir, context);
    if (header === 'rejected') return this.reject();
    if (!header) return undefined;
    // The folders found unchanged so far, with their names: a path found missing in one of them
    // is still missing while its name is not among them, and needs no stat of its own.
    const listed = new Map<string, readonly string[]>();
    const stamps = new Float64Array(header.inputs.length * 3);
    let files = 0;
    for (const stored of header.inputs) {
      // A file (most inputs): its stamp goes into the hash compared below, with no object made for it.
      if (isStoredFile(stored)) {
        if (!fileStamp(storedPath(dir, stored[0]), stamps, files++)) return undefined;
        continue;
      }
      const [path, input] = fromStored(dir, stored);
      if (input.kind === 'missing' && notListed(path, listed)) continue;
      if (!unchangedInput(path, input)) return undefined;
      if (input.kind === 'dir' && input.names) listed.set(path, input.names);
    }
    if (stampsHash(stamps, files) !== header.stamps) return undefined;
    const text = data.slice(cut + 1);
    if (checksum(text) !== header.sum) return this.reject();
    try {
      return JSON.parse(text) as T;
    } catch {
      return this.reject();
    }
  }

  private reject(): undefined {
    this.rejected++;
    return undefined;
  }
}

/**
 * The text an evaluation is kept as (an evaluation file: its header, a line break, its result), or
 * undefined when it is not to be kept: it depends on more than files, or read a file changed a
 * moment before it began. `version` names the build, as EvaluationCache's does.
 */
function evaluationEntry<T>(version: string, dir: string, context: string, recorded: RecordedEvaluation<T>): string | undefined {
  if (!recorded.kept) return undefined;
  const stored: StoredInput[] = [];
  const normalDir = isNormalAbsolute(dir);
  const stamps = new Float64Array(recorded.inputs.size * 3);
  let files = 0;
  for (const [path, input] of recorded.inputs) {
    if (input.kind === 'file') {
      if (Math.max(input.mtimeMs, input.ctimeMs) >= recorded.startedAt - RACY_MS) return undefined;
      stamps[files * 3] = input.size;
      stamps[files * 3 + 1] = input.mtimeMs;
      stamps[files++ * 3 + 2] = input.ctimeMs;
      stored.push([storedName(dir, path, normalDir)]);
      continue;
    }
    // A folder changed a moment ago may change again within the same tick: its names are listed again next time.
    const racy = input.kind === 'dir' && Math.max(input.mtimeMs ?? Infinity, input.ctimeMs ?? Infinity) >= recorded.startedAt - RACY_MS;
    stored.push(toStored(dir, path, racy ? { kind: 'dir', names: input.names } : input, normalDir));
  }
  // JSON never holds a raw line break: the first one ends the header.
  const text = JSON.stringify(recorded.value);
  const header: EvaluationHeader = { format: EVALUATION_FORMAT, version, dir, context, inputs: stored, stamps: stampsHash(stamps, files), sum: checksum(text) };
  return `${JSON.stringify(header)}\n${text}`;
}

/** The header of an evaluation file, undefined when it is valid but of another context, 'rejected' when it is not one this reader wrote for `dir`. */
function parseHeader(text: string, version: string, dir: string, context: string): EvaluationHeader | undefined | 'rejected' {
  let header: Partial<EvaluationHeader> | null;
  try {
    header = JSON.parse(text) as Partial<EvaluationHeader> | null;
  } catch {
    return 'rejected';
  }
  if (!header || typeof header !== 'object' || header.format !== EVALUATION_FORMAT || header.version !== version || header.dir !== dir) return 'rejected';
  if (typeof header.context !== 'string' || typeof header.sum !== 'string' || typeof header.stamps !== 'string' || !Array.isArray(header.inputs) || !header.inputs.every(isStoredInput))
    return 'rejected';
  return header.context === context ? (header as EvaluationHeader) : undefined;
}

/** The store key of a spec's evaluation (or of another kind of result), beside its parse cache file. */
export const evaluationKey = (dir: string, kind = 'evaluation') => `${cacheKey(dir)}.${kind}`;

/** Whether `path` is not among the names of its folder, when that folder is one of `listed`. */
function notListed(path: string, listed: ReadonlyMap<string, readonly string[]>): boolean {
  const cut = path.lastIndexOf(sep);
  const names = cut > 0 ? listed.get(path.slice(0, cut)) : undefined;
  return names !== undefined && !names.includes(path.slice(cut + 1));
}

/** Paths inside the spec directory are kept relative to it (shorter); others absolute. A file's stamp goes to the header's `stamps`. */
function toStored(dir: string, path: string, input: Exclude<RecordedInput, { kind: 'file' }>, normalDir: boolean): StoredInput {
  const name = storedName(dir, path, normalDir);
  switch (input.kind) {
    case 'dir':
      if (!input.names) return [name, 'dir'];
      return input.mtimeMs !== undefined && input.ctimeMs !== undefined ? [name, 'dir', input.names, input.mtimeMs, input.ctimeMs] : [name, 'dir', input.names];
    default:
      return [name, input.kind];
  }
}

/** `.`, `./<path inside dir>` with forward slashes, or the absolute path. `normalDir`: isNormalAbsolute(dir), asked once per spec. */
function storedName(dir: string, path: string, normalDir: boolean): string {
  if (path === dir) return '.';
  // The recorded paths are absolute and normal (readRecorder): one inside `dir` begins with it,
  // which is what `relative` would find, at a fraction of its cost (fifty per spec).
  if (normalDir && path.startsWith(dir) && path[dir.length] === sep) {
    const rest = path.slice(dir.length + 1);
    return `./${sep === '/' ? rest : rest.split(sep).join('/')}`;
  }
  const rel = relative(dir, path);
  return rel === '' ? '.' : !rel.startsWith('..') && !rel.startsWith(sep) && !/^[a-zA-Z]:/.test(rel) ? `./${rel.split(sep).join('/')}` : path;
}

/** The absolute path of a stored input's name. */
function storedPath(dir: string, name: string): string {
  // Concatenated, not joined: sixty paths per spec, a thousand specs, and the names were stored normalized.
  return name === '.' ? dir : name.startsWith('./') ? `${dir}${sep}${sep === '/' ? name.slice(2) : name.slice(2).split('/').join(sep)}` : name;
}

/** A stored folder or missing path as the RecordedInput it was (files are compared by their stamps: fileStamp). */
function fromStored(dir: string, stored: Exclude<StoredInput, StoredFile>): [string, RecordedInput] {
  const path = storedPath(dir, stored[0]);
  if (stored[1] === 'dir') {
    const [, , names, mtimeMs, ctimeMs] = stored as [string, 'dir', string[]?, number?, number?];
    return [path, names ? { kind: 'dir', names, mtimeMs, ctimeMs } : { kind: 'dir' }];
  }
  return [path, { kind: stored[1] }];
}

function isStoredInput(e: unknown): e is StoredInput {
  if (!Array.isArray(e) || typeof e[0] !== 'string') return false;
  if (e.length === 1) return true;
  if (e[1] === 'dir') {
    if (e.length === 2) return true;
    const names = Array.isArray(e[2]) && e[2].every((n: unknown) => typeof n === 'string');
    return names && (e.length === 3 || (e.length === 5 && typeof e[3] === 'number' && typeof e[4] === 'number'));
  }
  return e.length === 2 && (e[1] === 'missing' || e[1] === 'other');
}
