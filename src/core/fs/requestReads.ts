import { readFileSync, statSync } from 'node:fs';
import { sameStamp, type FileStamp } from './fileStamp';
import { readTextRecorded } from './readRecorder';

/** A file as one request last saw it: the version (stamp) and its bytes. */
type Seen = { stamp: FileStamp; bytes: Buffer };

/** The files the request under way has read or written; undefined outside a request. */
let seen: Map<string, Seen> | undefined;

const stampOf = (path: string): FileStamp => {
  const st = statSync(path);
  return { size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
};

/**
 * Runs `work` as one request of a spec's actor: each file it reads is read from the disk once.
 * While the request holds the spec's run lock nothing but its own effects writes the spec (loom
 * and every surface take the lock), so a file whose stamp did not change since it was read reads
 * the same, and a file the request wrote (writeFileAtomic) reads as written: reading the spec
 * before deciding, the guards' own look at a file, the approval's fingerprints and the facts
 * read back after the write then take one read of each file. Nested calls share the outer scope.
 */
export function withRequestReads<T>(work: () => T): T {
  if (seen) return work();
  seen = new Map();
  try {
    return work();
  } finally {
    seen = undefined;
  }
}

/** A file's bytes: read from the disk outside a request, once per version inside one (errors are readFileSync's). */
export function readFileOnce(path: string): Buffer {
  if (!seen) return readFileSync(path);
  const stamp = stampOf(path);
  const known = seen.get(path);
  if (known && sameStamp(known.stamp, stamp)) return known.bytes;
  const bytes = readFileSync(path);
  seen.set(path, { stamp, bytes });
  return bytes;
}

/** A file's text (UTF-8), as readFileOnce reads it. */
export const readTextOnce = (path: string): string => (seen ? readFileOnce(path).toString('utf8') : readTextRecorded(path));

/** The request wrote `content` to `path` (renamed into place): reading it back takes no read. */
export function wroteFile(path: string, content: string): void {
  if (!seen) return;
  try {
    seen.set(path, { stamp: stampOf(path), bytes: Buffer.from(content, 'utf8') });
  } catch {
    seen.delete(path);
  }
}
