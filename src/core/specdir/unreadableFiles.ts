import type { SpecSnapshot } from './specSnapshot';

/** A file of the spec that exists but could not be read, at its first problem. */
export interface UnreadableFile {
  /** Spec-relative, as loom names it (`requirements.json`, `tasks/T2.md`). */
  file: string;
  line: number;
  column: number;
  /** The reader's own words, which name the file (`specs/x/requirements.json is not valid JSON: …`). */
  message: string;
}

/**
 * The spec's own files that could not be read when the spec was (a cut-off JSON file, frontmatter
 * that does not parse, a value of the wrong shape): each error the reading gave is one, and the
 * guards read such a file as absent. One entry per file, its first problem, in the order found.
 */
export function unreadableFiles(s: Pick<SpecSnapshot, 'specDir' | 'diagnostics'>): UnreadableFile[] {
  const prefix = `${s.specDir}/`;
  const out = new Map<string, UnreadableFile>();
  for (const d of s.diagnostics) {
    if (d.severity !== 'error' || !d.file.startsWith(prefix)) continue;
    const file = d.file.slice(prefix.length);
    if (!out.has(file)) out.set(file, { file, line: d.line, column: d.column, message: d.message });
  }
  return [...out.values()];
}
