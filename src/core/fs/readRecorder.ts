import fs from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isNormalAbsolute } from './paths';
import { readOpenFile } from './readOpenFile';

/**
 * What a synchronous computation found on disk at one path, as much as it looked: a file's stamp
 * (size, modification and change time), a folder (with its entry names when it was listed), or
 * nothing there.
 */
export type RecordedInput =
  | { kind: 'file'; size: number; mtimeMs: number; ctimeMs: number }
  /** A folder's modification and change times move whenever an entry is added, removed or renamed in it. */
  | { kind: 'dir'; names?: string[]; mtimeMs?: number; ctimeMs?: number }
  | { kind: 'missing' }
  | { kind: 'other' };

export interface RecordedReads<T> {
  value: T;
  /** Every path the computation looked at, absolute, with what it found there. */
  inputs: Map<string, RecordedInput>;
  /** The computation read something that cannot be named by a path (a file descriptor, say) or opened a file for writing: its result depends on more than `inputs`. */
  unrecorded: boolean;
}

/** What one path holds now, without following it further than `stat` does. */
export function inputAt(path: string): RecordedInput {
  const st = original.statSync(path, { throwIfNoEntry: false });
  return st ? inputOf(st) : { kind: 'missing' };
}

/** What a stat of a path or of an open file found there. */
function inputOf(st: fs.Stats): RecordedInput {
  if (st.isFile()) return { kind: 'file', size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
  return st.isDirectory() ? { kind: 'dir', mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs } : { kind: 'other' };
}

/** The sorted entry names of a folder, or undefined when it cannot be listed. */
export function namesIn(path: string): string[] | undefined {
  try {
    return original.readdirSync(path).sort();
  } catch {
    return undefined;
  }
}

type Fs = typeof fs;
const WATCHED = ['readFileSync', 'statSync', 'lstatSync', 'existsSync', 'readdirSync', 'accessSync', 'realpathSync', 'openSync', 'opendirSync'] as const;
const original: Pick<Fs, (typeof WATCHED)[number]> = Object.fromEntries(WATCHED.map((name) => [name, fs[name]])) as Pick<Fs, (typeof WATCHED)[number]>;

let active: { inputs: Map<string, RecordedInput>; unrecorded: boolean } | undefined;

/** The absolute path `target` names, or undefined (and the recording marked unrecorded) when it is no path. */
function pathOf(target: unknown): string | undefined {
  if (typeof target !== 'string' && !(target instanceof URL)) {
    if (active) active.unrecorded = true; // a file descriptor or a buffer: no path to check again
    return undefined;
  }
  return typeof target === 'string' && isNormalAbsolute(target) ? target : resolve(target instanceof URL ? fileURLToPath(target) : target);
}

function note(target: unknown, listed: boolean): void {
  if (!active) return;
  const path = pathOf(target);
  if (path === undefined) return;
  const known = active.inputs.get(path);
  if (known && (!listed || (known.kind === 'dir' && known.names))) return;
  // Taken before the read itself: a file written during the read then shows a newer stamp next time, never an older one.
  let found = known ?? inputAt(path);
  // The folder's times are taken before its names: a change in between shows newer times next time.
  if (listed && found.kind === 'dir') found = { ...found, names: namesIn(path) };
  active.inputs.set(path, found);
}

/** `readFileSync`'s encoding argument, when it asks for UTF-8 text and nothing else (no flag): the calls `readText` answers. */
function asksForText(options: unknown): boolean {
  if (options === 'utf8' || options === 'utf-8') return true;
  if (!options || typeof options !== 'object') return false;
  const { encoding, flag, ...rest } = options as { encoding?: unknown; flag?: unknown };
  return (encoding === 'utf8' || encoding === 'utf-8') && (flag === undefined || flag === 'r') && Object.keys(rest).length === 0;
}

/** `readdirSync`'s options, when it lists one folder's names as strings or Dirents (not recursively, not as Buffers): the calls `listRecorded` answers. */
function listsNames(options: unknown): boolean {
  if (options === undefined || options === 'utf8' || options === 'utf-8') return true;
  if (!options || typeof options !== 'object') return false;
  const { encoding, withFileTypes, ...rest } = options as { encoding?: unknown; withFileTypes?: unknown };
  return (encoding === undefined || encoding === 'utf8' || encoding === 'utf-8') && (withFileTypes === undefined || typeof withFileTypes === 'boolean') && Object.keys(rest).length === 0;
}

/**
 * A recorded `readFileSync(path, 'utf8')`: the file's stamp is taken from the opened file before
 * its bytes are read (as `note` takes it before the read: a file written meanwhile shows a newer
 * stamp next time, never an older one), not by a second lookup of its path. A status run reads
 * fifty thousand files this way: the path's stat and the Buffer per file that readFileSync makes
 * were a third of the time spent reading them.
 * Errors are readFileSync's own (ENOENT from the open, EISDIR from the read).
 */
function readText(path: string): string {
  const recording = active!;
  const known = recording.inputs.get(path);
  let fd: number;
  try {
    fd = original.openSync(path, 'r');
  } catch (e) {
    if (!known) recording.inputs.set(path, inputAt(path));
    throw e;
  }
  try {
    let size = Infinity;
    if (!known) {
      const st = fs.fstatSync(fd);
      if (st.isFile()) size = st.size;
      recording.inputs.set(path, inputOf(st));
    }
    return readOpenFile(fd, size);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * A file's UTF-8 text, as `readFileSync(path, 'utf8')` gives it, recorded when recording: the
 * recorded read itself (readText), not through the wrapped `readFileSync`, whose generic checks of
 * its arguments a status run paid for each of its 26,000 reads.
 */
export function readTextRecorded(path: string): string {
  return active && isNormalAbsolute(path) ? readText(path) : fs.readFileSync(path, 'utf8');
}

/**
 * A recorded listing: the folder's times are taken first, then the caller's own listing gives its
 * names (not a second listing of the folder, as `note` makes for a probe such as opendirSync).
 */
function listRecorded(path: string, list: () => string[] | fs.Dirent[]): string[] | fs.Dirent[] {
  const recording = active!;
  const known = recording.inputs.get(path);
  if (known && known.kind === 'dir' && known.names) return list();
  const before: RecordedInput = known ?? inputAt(path);
  let result: string[] | fs.Dirent[];
  try {
    result = list();
  } catch (e) {
    recording.inputs.set(path, before);
    throw e;
  }
  recording.inputs.set(path, before.kind === 'dir' ? { ...before, names: entryNames(result).sort() } : before);
  return result;
}

/** A listing's names, in a new array (a listing by name is copied, not mapped). */
const entryNames = (listed: string[] | fs.Dirent[]): string[] => (listed.length && typeof listed[0] !== 'string' ? (listed as fs.Dirent[]).map((e) => e.name) : (listed as string[]).slice());

/** A folder's entries, each with whether it is a folder (as `readdirSync` with file types says); recorded when recording. */
export function folderEntries(path: string): { name: string; folder: boolean }[] {
  // fs's own function, looked up now: the recording's while recording.
  return fs.readdirSync(path, { withFileTypes: true }).map((e) => ({ name: e.name, folder: e.isDirectory() }));
}

/** A folder's entry names (as `readdirSync` lists them); recorded when recording. */
export function folderNames(path: string): string[] {
  return fs.readdirSync(path);
}

/**
 * Runs `compute` and records every path it reads, stats, lists or probes through `node:fs`, with
 * what it found there: a result derived from those files can then be reused as long as each path
 * still holds the same (see `unchangedInputs`). The functions of `node:fs` are wrapped only while
 * `compute` runs, and `compute` is synchronous, so no other code ever sees them wrapped.
 */
export function recordReads<T>(compute: () => T): RecordedReads<T> {
  if (active) throw new Error('recordReads does not nest');
  const recording = { inputs: new Map<string, RecordedInput>(), unrecorded: false };
  const mutable = fs as unknown as Record<string, unknown>;
  for (const name of WATCHED) {
    const fn = original[name] as (...args: unknown[]) => unknown;
    const listed = name === 'readdirSync' || name === 'opendirSync';
    // Object.assign keeps what hangs off a function (realpathSync.native).
    mutable[name] = Object.assign(function (this: unknown, ...args: unknown[]) {
      // A file opened for writing: the result depends on what the computation itself wrote.
      if (name === 'openSync' && args[1] !== undefined && args[1] !== 'r' && args[1] !== 'rs' && args[1] !== fs.constants.O_RDONLY) {
        if (active) active.unrecorded = true;
      } else if (active && name === 'readFileSync' && asksForText(args[1])) {
        const path = pathOf(args[0]);
        if (path !== undefined) return readText(path);
      } else if (active && name === 'readdirSync' && listsNames(args[1]) && (typeof args[0] === 'string' || args[0] instanceof URL)) {
        return listRecorded(pathOf(args[0])!, () => fn.apply(this, args) as string[] | fs.Dirent[]);
      } else note(args[0], listed);
      return fn.apply(this, args);
    }, fn);
  }
  active = recording;
  try {
    const value = compute();
    if (value instanceof Promise) throw new Error('recordReads records synchronous work only');
    return { value, ...recording };
  } finally {
    active = undefined;
    for (const name of WATCHED) mutable[name] = original[name];
  }
}

/**
 * Runs `read` without recording it: a cache's own files are how a result is kept, not what it
 * is derived from (the parse cache hands back what the files said, and is checked against them).
 */
export function unrecorded<T>(read: () => T): T {
  const paused = active;
  active = undefined;
  try {
    return read();
  } finally {
    active = paused;
  }
}

const sameNames = (a: readonly string[] | undefined, b: readonly string[] | undefined) => a === b || (a !== undefined && b !== undefined && a.length === b.length && a.every((n, i) => n === b[i]));

/**
 * Whether `path` is still a file of this size and these modification and change times. Taken
 * apart from a RecordedInput: a reload checks fifty thousand of them, and an object for each is
 * garbage the extension host collects while the window starts.
 */
export function unchangedFile(path: string, size: number, mtimeMs: number, ctimeMs: number): boolean {
  const st = original.statSync(path, { throwIfNoEntry: false });
  return st !== undefined && st.isFile() && st.size === size && st.mtimeMs === mtimeMs && st.ctimeMs === ctimeMs;
}

/**
 * Puts the stamp of the file at `path` (size, modification and change time) into `stamps` at
 * `index` (three numbers each), as a kept evaluation compares them (one hash of them all);
 * false when `path` is no longer a file.
 */
export function fileStamp(path: string, stamps: Float64Array, index: number): boolean {
  const st = original.statSync(path, { throwIfNoEntry: false });
  if (st === undefined || !st.isFile()) return false;
  stamps[index * 3] = st.size;
  stamps[index * 3 + 1] = st.mtimeMs;
  stamps[index * 3 + 2] = st.ctimeMs;
  return true;
}

/**
 * Whether `path` still holds what was recorded there. A folder that was listed is listed again
 * only when its times moved (an entry came and went, say): while they are the ones recorded with
 * its names, no entry was added, removed or renamed in it since. (The change time cannot be set
 * back: a folder whose modification time was restored, as tar does, has a new one.)
 */
export function unchangedInput(path: string, recorded: RecordedInput): boolean {
  if (recorded.kind === 'file') return unchangedFile(path, recorded.size, recorded.mtimeMs, recorded.ctimeMs);
  const now = inputAt(path);
  if (now.kind !== recorded.kind) return false;
  if (now.kind === 'dir' && recorded.kind === 'dir' && recorded.names) {
    if (recorded.mtimeMs !== undefined && now.mtimeMs === recorded.mtimeMs && now.ctimeMs === recorded.ctimeMs) return true;
    return sameNames(namesIn(path), recorded.names);
  }
  return true;
}
