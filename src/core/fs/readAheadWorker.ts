import { closeSync, fstatSync, openSync, readdirSync, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { workerData } from 'node:worker_threads';
import { ClaimQueue } from '../threads/claimQueue';
import { DONE, MAIN_AT, READ, READ_AHEAD_THREAD, SENT, type FolderReadAhead, type ReadAheadBatch, type ReadAheadRequest } from './readAheadProtocol';
import { readOpenFile } from './readOpenFile';

// The read-ahead thread of a first `loom-vscode status` (readAhead.ts), bundled as
// dist/readAheadWorker.js (scripts/build.mjs): reads the files of the specs the main thread is
// about to read, a few specs ahead of it, and sends each spec's texts with their stamps. It loads
// nothing but node:fs (no bundle to compile before it reads); the main thread is left the parsing.

const request = workerData as ReadAheadRequest;
/** How far past the main thread's spec the thread goes on when the main thread caught up with it. */
const CAUGHT_UP_JUMP = 3;
const progress = new Int32Array(request.progress);
const claims = new ClaimQueue(request.claims);

/**
 * A folder's times, then its entries (the times first, as the main thread takes them: an entry
 * added in between shows newer times next time); undefined when it cannot be read.
 */
function listFolder(path: string): { folder: FolderReadAhead; entries: Dirent[] } | undefined {
  try {
    const st = statSync(path);
    if (!st.isDirectory()) return undefined;
    const entries = readdirSync(path, { withFileTypes: true });
    const names = entries.map((e) => e.name);
    return { folder: { path, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, names, subfolders: entries.filter((e) => e.isDirectory()).map((e) => e.name) }, entries };
  } catch {
    return undefined;
  }
}

function readSpec(k: number, dir: string): ReadAheadBatch {
  const batch: ReadAheadBatch = { k, paths: [], texts: [], stamps: new Float64Array(0), folders: [] };
  const stamps: number[] = [];
  const files: string[] = [];
  const top = listFolder(dir);
  if (top) {
    batch.folders.push(top.folder);
    for (const e of top.entries) if (e.isFile()) files.push(join(dir, e.name));
    for (const name of [...request.folders, ...request.listedOnly]) {
      const folder = top.folder.subfolders.includes(name) ? listFolder(join(dir, name)) : undefined;
      if (!folder) continue;
      batch.folders.push(folder.folder);
      if (request.folders.includes(name)) for (const e of folder.entries) if (e.isFile()) files.push(join(folder.folder.path, e.name));
    }
  }
  for (const path of files) {
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch {
      continue; // gone, or not readable: the main thread meets it itself, and reports it
    }
    try {
      // Taken before the bytes are read, as the main thread's own read takes it.
      const st = fstatSync(fd);
      if (!st.isFile() || st.size > request.maxFileBytes) continue;
      batch.texts.push(readOpenFile(fd, st.size));
      batch.paths.push(path);
      stamps.push(st.size, st.mtimeMs, st.ctimeMs);
    } catch {
      // Unreadable after all: left to the main thread.
    } finally {
      closeSync(fd);
    }
  }
  batch.stamps = Float64Array.from(stamps);
  return batch;
}

for (let k = 0; k < request.dirs.length && Atomics.load(progress, DONE) === 0; k++) {
  // Never behind the main thread (what it reached first, it reads itself), never more than `lead` ahead.
  // Caught up with, it goes a few specs further: one spec ahead, it would be caught again while reading it.
  const mainAt = Atomics.load(progress, MAIN_AT);
  if (k <= mainAt) k = mainAt + CAUGHT_UP_JUMP;
  for (let at = Atomics.load(progress, MAIN_AT); k > at + request.lead && Atomics.load(progress, DONE) === 0; at = Atomics.load(progress, MAIN_AT)) {
    Atomics.wait(progress, MAIN_AT, at, 50);
  }
  if (k >= request.dirs.length || Atomics.load(progress, DONE) !== 0) break;
  // The main thread got there first: it reads that spec itself.
  if (!claims.claim(k, READ_AHEAD_THREAD)) continue;
  const batch = readSpec(k, request.dirs[k]);
  request.port.postMessage(batch, [batch.stamps.buffer as ArrayBuffer]);
  Atomics.add(progress, READ, 1);
  // Once sent: the main thread looks in the port only for a spec said to be there (and may be waiting for it).
  Atomics.store(progress, SENT, k);
  Atomics.notify(progress, SENT);
}
request.port.close();
