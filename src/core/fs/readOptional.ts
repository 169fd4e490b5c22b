import { readTextOnce } from './requestReads';

/**
 * A UTF-8 file's text, or undefined when it cannot be read (missing, a folder, no permission).
 * Read once per version within a request (readTextOnce), as the spec's own files are.
 */
export function readOptionalText(path: string): string | undefined {
  try {
    return readTextOnce(path);
  } catch {
    return undefined;
  }
}
