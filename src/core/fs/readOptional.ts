import { readFileSync } from 'node:fs';

/** A UTF-8 file's text, or undefined when it cannot be read (missing, a folder, no permission). */
export function readOptionalText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
