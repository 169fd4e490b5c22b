import { readSync } from 'node:fs';

/** Reused by every read of a text file: most of loom's files are a few hundred bytes. */
const READ_BUFFER_BYTES = 64 * 1024;
let readBuffer: Buffer | undefined;

/**
 * The UTF-8 text of an open file, read into one reused buffer rather than a Buffer per file (as
 * readFileSync makes): a status run reads fifty thousand files. `size` is the size its stamp
 * records: once that many bytes are read, the read that would return none is not made (Infinity
 * when unknown). Errors are readSync's own (EISDIR for a folder).
 */
export function readOpenFile(fd: number, size: number): string {
  readBuffer ??= Buffer.allocUnsafe(READ_BUFFER_BYTES);
  let length = 0;
  while (length < size) {
    if (length === readBuffer.length) {
      const larger = Buffer.allocUnsafe(readBuffer.length * 2);
      readBuffer.copy(larger, 0, 0, length);
      readBuffer = larger;
    }
    const n = readSync(fd, readBuffer, length, readBuffer.length - length, null);
    if (n === 0) break;
    length += n;
  }
  const text = readBuffer.toString('utf8', 0, length);
  // A large file's buffer is not kept: the next one is likely a few hundred bytes again.
  if (readBuffer.length > READ_BUFFER_BYTES) readBuffer = undefined;
  return text;
}
