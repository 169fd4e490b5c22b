import { closeSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { unrecorded } from '../fs/readRecorder';
import type { SpecCacheStore } from './specCache';

/** The first line of a compact cache file; another one (an older format, another file) is read as empty. */
const MAGIC = 'loom-vscode compact cache 1';

/**
 * A store of every spec's cache entry in one file, read whole on first use and written whole by
 * `save()` (atomically: a temporary file, then a rename). For a reader that visits every spec of
 * a repository in one go (`loom-vscode status`): a thousand cache files cost a thousand creations
 * and renames, the most part of a first run's time on an empty cache folder; one file of the
 * same text costs one.
 *
 * The file is `MAGIC`, then each entry as `<key>\t<length>\n<text>\n`. A file that is truncated or
 * damaged yields the entries before the damage; each entry is checked by its reader anyway (the
 * evaluation cache rejects a header or a checksum that does not match), never trusted as it is.
 */
export class CompactCacheStore implements SpecCacheStore {
  private entries?: Map<string, string>;
  /** The keys read or written since the store was made: `save({ prune: true })` keeps only them. */
  private readonly touched = new Set<string>();
  private changed = false;

  constructor(private readonly file: string) {}

  read(key: string): string | undefined {
    this.touched.add(key);
    return this.loaded().get(key);
  }

  write(key: string, text: string): void {
    if (/[\t\n]/.test(key)) throw new Error(`a compact cache key cannot hold a tab or a line break: ${JSON.stringify(key)}`);
    this.touched.add(key);
    const entries = this.loaded();
    if (entries.get(key) === text) return;
    entries.set(key, text);
    this.changed = true;
  }

  remove(key: string): void {
    if (this.loaded().delete(key)) this.changed = true;
  }

  /**
   * Writes the file when an entry changed. `prune`: entries nobody read or wrote since the store
   * was made go (the reader visited every spec there is: the others' directories are gone).
   * Never throws: a cache that cannot be written is only slower next time.
   */
  save(options: { prune?: boolean } = {}): void {
    const entries = this.loaded();
    const kept = options.prune ? [...entries].filter(([key]) => this.touched.has(key)) : [...entries];
    if (!this.changed && kept.length === entries.size) return;
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      const temp = `${this.file}.${process.pid}.tmp`;
      writeChunks(temp, compactFileChunks(kept));
      renameSync(temp, this.file);
      this.changed = false;
    } catch {
      // Lost: the next run evaluates again.
    }
  }

  private loaded(): Map<string, string> {
    if (!this.entries) this.entries = parseCompactFile(readOptional(this.file));
    return this.entries;
  }
}

/** The cache's own file is how results are kept, not an input of them: never recorded. */
function readOptional(file: string): string | undefined {
  return unrecorded(() => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
  });
}

/** A compact cache file's text holding `entries` (keys without tabs or line breaks). */
export function compactFileText(entries: Iterable<readonly [string, string]>): string {
  return [...compactFileChunks(entries)].join('');
}

/** Text of about this many characters is written at a time. */
const CHUNK = 64 * 1024;

/**
 * compactFileText's text, a chunk at a time: the status of 1,000 specs is a 4.7 MB file, and
 * joined into one string, then encoded into one buffer, it took 60 ms to write where its chunks
 * take 13 (each megabyte of fresh memory costs a few ms here: docs/performance.md).
 */
function* compactFileChunks(entries: Iterable<readonly [string, string]>): Generator<string> {
  let chunk = `${MAGIC}\n`;
  for (const [key, text] of entries) {
    chunk += `${key}\t${text.length}\n${text}\n`;
    if (chunk.length >= CHUNK) {
      yield chunk;
      chunk = '';
    }
  }
  yield chunk;
}

/** Each chunk is encoded into one reused buffer: a fresh buffer per chunk is fresh memory, which costs more here than the encoding. */
function writeChunks(file: string, chunks: Iterable<string>): void {
  const fd = openSync(file, 'w');
  let buffer = Buffer.allocUnsafe(0);
  try {
    for (const chunk of chunks) {
      // Three bytes a UTF-16 unit at most.
      if (buffer.length < chunk.length * 3) buffer = Buffer.allocUnsafe(chunk.length * 3);
      const length = buffer.write(chunk, 0, 'utf8');
      // A write may take fewer bytes than it was given (as writeFileSync, go on until all are written).
      for (let at = 0; at < length;) at += writeSync(fd, buffer, at, length - at);
    }
  } finally {
    closeSync(fd);
  }
}

/** The entries of a compact cache file, up to the first that does not read (none for another file). */
export function parseCompactFile(data: string | undefined): Map<string, string> {
  const entries = new Map<string, string>();
  if (data === undefined || !data.startsWith(`${MAGIC}\n`)) return entries;
  let at = MAGIC.length + 1;
  while (at < data.length) {
    const tab: number = data.indexOf('\t', at);
    const eol: number = tab < 0 ? -1 : data.indexOf('\n', tab);
    if (eol < 0) break;
    const length: number = Number(data.slice(tab + 1, eol));
    const start: number = eol + 1;
    const end = start + length;
    // Lengths count UTF-16 units, as the text's own `length` did; the entry must end where its line does.
    const key = data.slice(at, tab);
    if (key.includes('\n') || !Number.isInteger(length) || length < 0 || end >= data.length || data[end] !== '\n') break;
    entries.set(key, data.slice(start, end));
    at = end + 1;
  }
  return entries;
}
