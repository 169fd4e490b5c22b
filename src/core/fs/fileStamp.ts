/**
 * What identifies one version of a file without reading it: its size and modification time
 * (the change time too, so that a file restored with its old mtime is not mistaken for the old one).
 */
export interface FileStamp {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

/** Whether two stamps name the same version of a file. */
export const sameStamp = (a: FileStamp, b: FileStamp): boolean => a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
