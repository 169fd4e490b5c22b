import { statSync } from 'node:fs';

/** Whether `path` is an existing regular file (not a folder, not missing). */
export function isFile(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return false;
  }
}
