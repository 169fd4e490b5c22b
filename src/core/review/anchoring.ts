import type { ReviewThread } from './reviewComments';

/** Where a thread's text stands in the file now. */
export interface ThreadAnchor {
  /** 1-based, inclusive. */
  line: number;
  endLine: number;
  /** The quoted text is no longer in the file: the thread stays at its old lines, marked outdated. */
  outdated: boolean;
}

const splitLines = (text: string) => text.replace(/\r\n/g, '\n').split('\n');
const same = (a: string, b: string) => a.trimEnd() === b.trimEnd();

/** The text of lines `line..endLine` (1-based, inclusive), as a thread quotes it. */
export function quoteLines(text: string, line: number, endLine: number): string {
  return splitLines(text)
    .slice(line - 1, endLine)
    .join('\n');
}

/**
 * Finds a thread's quoted lines in the file's current text, as a pull request follows a comment
 * through later commits: where they were, else the occurrence nearest to where they were (lines
 * added or removed above move it), else outdated at the old place. Trailing spaces do not count.
 */
export function anchorThread(thread: Pick<ReviewThread, 'line' | 'end_line' | 'quote'>, text: string): ThreadAnchor {
  const lines = splitLines(text);
  const quote = splitLines(thread.quote);
  const span = quote.length;
  const matchesAt = (start: number) => quote.every((q, i) => start + i < lines.length && same(lines[start + i], q));
  const original = thread.line - 1;
  if (thread.quote.trim() === '') return clampOutdated(thread, lines.length, !matchesAt(original));
  if (matchesAt(original)) return { line: thread.line, endLine: thread.line + span - 1, outdated: false };
  let best: number | undefined;
  for (let start = 0; start + span <= lines.length; start++) {
    if (matchesAt(start) && (best === undefined || Math.abs(start - original) < Math.abs(best - original))) best = start;
  }
  if (best !== undefined) return { line: best + 1, endLine: best + span, outdated: false };
  return clampOutdated(thread, lines.length, true);
}

function clampOutdated(thread: Pick<ReviewThread, 'line' | 'end_line'>, lineCount: number, outdated: boolean): ThreadAnchor {
  const last = Math.max(1, lineCount);
  const line = Math.min(thread.line, last);
  return { line, endLine: Math.max(line, Math.min(thread.end_line, last)), outdated };
}
