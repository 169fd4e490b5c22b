import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

export function sha256OfFile(path: string): string | undefined {
  try {
    return createHash('sha256').update(readFileSync(path)).digest('hex');
  } catch {
    return undefined;
  }
}
