/**
 * The matrix's filters, kept apart from the DOM so that they are tested in plain Node and the
 * export of "what I see" selects exactly the same rows as the screen.
 */
import type { MatrixRow } from './matrixModel';

export interface MatrixFilter {
  /** Only behaviors that are not closed. */
  gapsOnly: boolean;
  /** '' means any. */
  category: string;
  status: string;
  task: string;
  /** Case-insensitive; every word must appear somewhere in the row. */
  text: string;
}

export const EMPTY_FILTER: MatrixFilter = { gapsOnly: false, category: '', status: '', task: '', text: '' };

export interface MatrixCounts {
  shown: number;
  total: number;
  closed: number;
  open: number;
}

// Rows are immutable once received, so their search text is computed once per row.
const haystacks = new WeakMap<MatrixRow, string>();
function haystack(row: MatrixRow): string {
  let text = haystacks.get(row);
  if (text === undefined) {
    text = [row.requirement, row.behavior, row.category, row.status, row.description, ...row.tasks, ...row.tests.map((t) => t.ref), ...row.evidence.map((e) => e.ref), ...row.gaps]
      .join('\n')
      .toLowerCase();
    haystacks.set(row, text);
  }
  return text;
}

export function isFiltered(f: MatrixFilter): boolean {
  return f.gapsOnly || f.category !== '' || f.status !== '' || f.task !== '' || f.text.trim() !== '';
}

export function rowMatches(row: MatrixRow, f: MatrixFilter, words = searchWords(f.text)): boolean {
  if (f.gapsOnly && row.closed) return false;
  if (f.category && row.category !== f.category) return false;
  if (f.status && row.status !== f.status) return false;
  if (f.task && !row.tasks.includes(f.task)) return false;
  if (words.length) {
    const text = haystack(row);
    if (!words.every((w) => text.includes(w))) return false;
  }
  return true;
}

const searchWords = (text: string) =>
  text
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w.length > 0);

export function filterRows(rows: readonly MatrixRow[], f: MatrixFilter): MatrixRow[] {
  if (!isFiltered(f)) return rows.slice();
  const words = searchWords(f.text);
  return rows.filter((r) => rowMatches(r, f, words));
}

export function countRows(shown: readonly MatrixRow[], total: number): MatrixCounts {
  let closed = 0;
  for (const r of shown) if (r.closed) closed++;
  return { shown: shown.length, total, closed, open: shown.length - closed };
}

/** Accepts a saved filter only if it has the right shape (saved state may come from an older build). */
export function sanitizeFilter(value: unknown): MatrixFilter {
  const v = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  const str = (k: keyof MatrixFilter) => (typeof v[k] === 'string' ? (v[k] as string) : '');
  return { gapsOnly: v.gapsOnly === true, category: str('category'), status: str('status'), task: str('task'), text: str('text') };
}
