import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { wroteFile } from './requestReads';

/** Writes a file the way loom does: a temporary file beside the target, then a rename. */
export function writeFileAtomic(path: string, content: string): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}.tmp`);
  try {
    const fd = openSync(tmp, 'w');
    try {
      writeSync(fd, content);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
    wroteFile(path, content);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** JSON as loom writes it: two-space indentation and a trailing newline. */
export const toJsonText = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** `.<name>.<pid>.<ms>.<random>.tmp`, as writeFileAtomic names its temporary file: the pid is its writer's. */
const TEMP_NAME = /^\..+\.(\d+)\.\d+\.[a-z0-9]+\.tmp$/;

/**
 * Removes the temporary files of atomic writes whose writer no longer runs (killed between the
 * write and the rename), under `dir` and its folders a few levels down; returns what it removed.
 * A file of a live writer is left alone: it is about to be renamed.
 */
export function removeOrphanTempFiles(dir: string, isAlive: (pid: number) => boolean, depth = 3): string[] {
  const removed: string[] = [];
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return removed;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      if (depth > 0 && e.name !== 'node_modules' && e.name !== '.git') removed.push(...removeOrphanTempFiles(path, isAlive, depth - 1));
      continue;
    }
    const m = TEMP_NAME.exec(e.name);
    if (!m || !e.isFile() || isAlive(Number(m[1]))) continue;
    rmSync(path, { force: true });
    removed.push(path);
  }
  return removed;
}
