import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RE2JS, RE2JSException } from 're2js';

/**
 * What the search worker does with one `loom_search_text` call: compile the model's pattern
 * with RE2 (linear-time: no pattern can backtrack catastrophically) and walk the folder, matching
 * each line up to a length cap. It runs in a worker thread (textSearch.ts), never on the
 * extension host's thread. Links are not followed: they could lead out of the worktree.
 */
export interface TextSearchRequest {
  /** Absolute file or folder to search, already confined to the worktree. */
  abs: string;
  /** Its worktree-relative path ('' for the root), the prefix of every match. */
  rel: string;
  query: string;
  regex: boolean;
  caseSensitive: boolean;
  maxMatches: number;
  maxFileBytes: number;
  /** Lines are matched in their first maxLineChars characters only. */
  maxLineChars: number;
  skippedDirs: readonly string[];
}

export type TextSearchMessage = { kind: 'match'; line: string } | { kind: 'done' } | { kind: 'refused'; message: string };

export function scanForText(req: TextSearchRequest, post: (m: TextSearchMessage) => void): void {
  let re: RE2JS;
  try {
    re = RE2JS.compile(req.regex ? req.query : RE2JS.quote(req.query), req.caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
  } catch (e) {
    const reason = e instanceof RE2JSException ? e.message.replace(/^error parsing regexp: /, '') : String(e);
    post({ kind: 'refused', message: `the regular expression does not compile in RE2 syntax, which has no backreferences or lookaround: ${reason}` });
    return;
  }
  const skipped = new Set(req.skippedDirs);
  let found = 0;
  const visit = (abs: string, rel: string): void => {
    if (found >= req.maxMatches) return;
    const st = lstatSync(abs, { throwIfNoEntry: false });
    if (!st || st.isSymbolicLink()) return;
    if (st.isDirectory()) {
      for (const e of readable(() => readdirSync(abs).sort()) ?? []) {
        if (!skipped.has(e.toLowerCase())) visit(join(abs, e), rel ? `${rel}/${e}` : e);
      }
      return;
    }
    if (!st.isFile() || st.size > req.maxFileBytes) return;
    const buf = readable(() => readFileSync(abs));
    if (!buf || buf.subarray(0, 8000).includes(0)) return;
    const lines = buf.toString('utf8').split('\n');
    for (let i = 0; i < lines.length && found < req.maxMatches; i++) {
      const line = lines[i].length > req.maxLineChars ? lines[i].slice(0, req.maxLineChars) : lines[i];
      if (re.test(line)) {
        found++;
        post({ kind: 'match', line: `${rel}:${i + 1}: ${line.trim().slice(0, 200)}` });
      }
    }
  };
  visit(req.abs, req.rel);
  post({ kind: 'done' });
}

/** A file or folder that cannot be read (permissions, removed meanwhile) is skipped, as grep does. */
function readable<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
