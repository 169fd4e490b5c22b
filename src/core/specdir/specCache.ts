import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sameStamp, type FileStamp } from '../fs/fileStamp';
import { unrecorded } from '../fs/readRecorder';
import { DelayedWrites } from './delayedWrites';
import { displayLanguage } from '../messages';
import { hexDigest } from '../nodeModules';

/**
 * The parses of one spec directory's files, each valid for the stamp it was recorded with. A
 * value is kept as JSON: plain objects, arrays, strings, numbers and booleans only (a reader
 * that needs a Map or a Set rebuilds it from what it stored).
 */
export interface SpecFileCache {
  /** The parse of `name` (spec-relative) recorded for exactly this stamp, if any. */
  get(name: string, stamp: FileStamp): unknown;
  set(name: string, stamp: FileStamp, value: unknown): void;
}

/** Where the per-spec cache files live: the extension's storage, or the user's cache folder for the CLI. */
export interface SpecCacheStore {
  /** The cache file's text (JSON), if there is one. */
  read(key: string): string | undefined;
  /** Text, not a Buffer: a Buffer per file would be memory outside the JS heap, freed late (the host's peak grew by tens of MB). */
  write(key: string, text: string): void;
  remove(key: string): void;
}

/** Bumped when the shape of a cache file or of a parse changes: older files are then rebuilt. */
const CACHE_FORMAT = 1;

/**
 * A file whose modification time is this close to the moment it was read may still change
 * within the same timestamp tick (Linux stamps files with a coarse clock, FAT with 2 s), keeping
 * its size and mtime: such a parse is used for this load but not kept (git's "racily clean" rule).
 */
const RACY_MS = 2000;

type Entry = { stamp: FileStamp; value: unknown };

/** A cache file, as JSON: each file's stamp and parse as `[size, mtimeMs, ctimeMs, value]`. */
interface CacheFile {
  format: number;
  version: string;
  dir: string;
  files: Record<string, [number, number, number, unknown]>;
}

/**
 * One spec's entries while it is read: hits come from what was recorded, misses are recorded.
 * Only the files read this time are kept, so a deleted file's parse goes with the next write.
 */
class SpecEntries implements SpecFileCache {
  readonly used = new Map<string, Entry>();
  dirty: boolean;

  constructor(
    private readonly recorded: Map<string, Entry>,
    private readonly readAt: number,
    fresh: boolean,
    private readonly counts: { hits: number; misses: number },
  ) {
    this.dirty = fresh;
  }

  get(name: string, stamp: FileStamp): unknown {
    const e = this.recorded.get(name);
    if (!e || !sameStamp(e.stamp, stamp)) return undefined;
    this.counts.hits++;
    this.used.set(name, e);
    return e.value;
  }

  set(name: string, stamp: FileStamp, value: unknown): void {
    this.counts.misses++;
    this.dirty = true;
    if (Math.max(stamp.mtimeMs, stamp.ctimeMs) < this.readAt - RACY_MS) this.used.set(name, { stamp, value });
  }

  /** Whether the entries kept differ from the ones recorded (some were dropped or added). */
  get changed(): boolean {
    return this.dirty || this.used.size !== this.recorded.size;
  }
}

/** What a cache counted since it was made: the parse cache and the evaluation cache alike. */
export interface CacheCounts {
  hits: number;
  misses: number;
  written: number;
  rejected: number;
}

/** A cache's counters as one record. */
export const cacheCounts = (c: { readonly counts: { hits: number; misses: number }; written: number; rejected: number }): CacheCounts => ({
  ...c.counts,
  written: c.written,
  rejected: c.rejected,
});

/**
 * The per-spec parse cache: for each spec directory, the parse of each of its files keyed by the
 * file's name, size and modification time, kept in one file per spec in `store`. A reload then
 * costs a stat per unchanged file and a parse per changed one. A cache file that is unreadable,
 * truncated, of another format or version, or about another directory is ignored and rewritten:
 * the cache is never trusted over the files, only used when it provably describes them.
 */
export class SpecCache {
  /** What each spec's cache file said, once read (and then what was last written). */
  private readonly memory = new Map<string, Map<string, Entry>>();
  /** Cache files found unusable since the cache was made (for the log and tests). */
  rejected = 0;
  /** Cache files written since the cache was made. */
  get written(): number {
    return this.writes.written;
  }
  /** Files whose recorded parse was used, and files read and parsed, since the cache was made. */
  readonly counts = { hits: 0, misses: 0 };

  constructor(
    private readonly store: SpecCacheStore,
    /** The reader's version: a cache written by another version of the parsers, or in another display language, is rebuilt. */
    private readonly version: string,
    private readonly options: {
      now?: () => number;
      remember?: boolean;
      /**
       * Write cache files this long after a load instead of during it (the extension host: the
       * first rows of the tree are not kept waiting for a thousand writes). `flush()` writes them now.
       */
      writeDelayMs?: number;
      /**
       * What the parses are for, which names their files (`<hash>.<kind>`): the extension keeps the
       * parse of pipeline.state.json its list rows need (kind `summary`) apart from each spec's
       * full set, so that a row reads one small cache file, not the spec's whole one.
       */
      kind?: string;
    } = {},
  ) {
    this.writes = new DelayedWrites((dir, data) => unrecorded(() => this.store.write(this.key(dir), data)), options.writeDelayMs);
  }

  private key(dir: string): string {
    return this.options.kind ? `${cacheKey(dir)}.${this.options.kind}` : cacheKey(dir);
  }

  private readonly writes: DelayedWrites;

  private get remember(): boolean {
    // A one-shot reader (the CLI) reads each spec once: keeping every spec's entries would only cost memory.
    return this.options.remember !== false;
  }

  /** Opens one spec's entries for a load; hand them back to `commit` when the load is done. */
  /** The parses hold problems worded in the display language: a cache written in another one is not theirs. */
  private versionNow(): string {
    return `${this.version}+${displayLanguage()}`;
  }

  open(dir: string): SpecFileCache {
    let recorded = this.memory.get(dir);
    let fresh = false;
    if (!recorded) {
      recorded = this.readFile(dir);
      fresh = recorded === undefined;
      recorded ??= new Map();
      if (this.remember) this.memory.set(dir, recorded);
    }
    return new SpecEntries(recorded, (this.options.now ?? Date.now)(), fresh, this.counts);
  }

  /** Writes the spec's cache file when its entries changed. Never throws: a cache that cannot be written is only slower. */
  commit(dir: string, entries: SpecFileCache): void {
    if (!(entries instanceof SpecEntries) || !entries.changed) return;
    if (this.remember) this.memory.set(dir, entries.used);
    const files: CacheFile['files'] = {};
    for (const [name, { stamp, value }] of entries.used) files[name] = [stamp.size, stamp.mtimeMs, stamp.ctimeMs, value];
    const file: CacheFile = { format: CACHE_FORMAT, version: this.versionNow(), dir, files };
    const data = JSON.stringify(file);
    this.writes.put(dir, data);
  }

  /** Writes the cache files still waiting (on deactivation, say). */
  flush(): void {
    this.writes.flush();
  }

  /** Forgets a spec whose directory is gone. */
  forget(dir: string): void {
    this.memory.delete(dir);
    this.writes.drop(dir);
    try {
      this.store.remove(this.key(dir));
    } catch {
      // Nothing to remove.
    }
  }

  private readFile(dir: string): Map<string, Entry> | undefined {
    const data = this.writes.read(dir, () => unrecorded(() => this.store.read(this.key(dir))));
    if (!data) return undefined;
    const entries = parseCacheFile(data, this.versionNow(), dir);
    if (!entries) this.rejected++;
    return entries;
  }
}

/** The entries of a cache file, or undefined when it is not one this reader wrote for `dir`. */
function parseCacheFile(text: string, version: string, dir: string): Map<string, Entry> | undefined {
  let file: Partial<CacheFile> | null;
  try {
    file = JSON.parse(text) as Partial<CacheFile> | null;
  } catch {
    return undefined; // truncated or not JSON
  }
  if (!file || typeof file !== 'object' || file.format !== CACHE_FORMAT || file.version !== version || file.dir !== dir) return undefined;
  if (!file.files || typeof file.files !== 'object' || Array.isArray(file.files)) return undefined;
  const entries = new Map<string, Entry>();
  for (const [name, e] of Object.entries(file.files)) {
    if (!Array.isArray(e) || e.length !== 4 || typeof e[0] !== 'number' || typeof e[1] !== 'number' || typeof e[2] !== 'number' || e[3] === null || typeof e[3] !== 'object') return undefined;
    entries.set(name, { stamp: { size: e[0], mtimeMs: e[1], ctimeMs: e[2] }, value: e[3] });
  }
  return entries;
}

/** The cache file of a spec directory: a hash of its absolute path, so any path makes a valid file name. */
export const cacheKey = (dir: string) => hexDigest('sha1', dir);

/** A store of one file per spec in `root`, each written atomically (temporary file, then rename). */
export function directoryCacheStore(root: string): SpecCacheStore {
  let made = false;
  return {
    read(key) {
      try {
        return readFileSync(join(root, `${key}.json`), 'utf8');
      } catch {
        return undefined;
      }
    },
    write(key, text) {
      if (!made) {
        mkdirSync(root, { recursive: true });
        made = true;
      }
      const path = join(root, `${key}.json`);
      // Per process: the look's worker process writes the same store as the extension host.
      const temp = `${path}.${process.pid}.tmp`;
      writeFileSync(temp, text, 'utf8');
      renameSync(temp, path);
    },
    remove(key) {
      rmSync(join(root, `${key}.json`), { force: true });
    },
  };
}
