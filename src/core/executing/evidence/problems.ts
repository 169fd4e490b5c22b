import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { normalizeOwnedPath, repoRelative } from '../../fs/paths';
import { t, type Language } from '../../messages';
import type { FixItem } from '../dispatch/fixInstructions';
import type { Problem, ProblemsPort } from '../ports';

/**
 * "No new errors in the Problems panel": the errors of the files a task owns are noted when it
 * starts, and once its review and tests passed, an error on a file it changed counts only when it
 * was not there before (the same message from the same source, lines aside, since the task moves
 * them). A file the task added had none before.
 */
export type ProblemsBefore = Record<string, string[]>;

const keyOf = (p: Problem) => `${p.source ?? ''}\u0000${p.code ?? ''}\u0000${p.message.trim()}`;

/** The files of the worktree the task's owns name (a folder: what is under it), worktree-relative, at most `limit`. */
export function ownedFiles(worktree: string, owns: readonly string[], limit = 100): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    if (out.length >= limit) return;
    let stat;
    try {
      stat = statSync(join(worktree, rel));
    } catch {
      return;
    }
    if (stat.isFile()) {
      out.push(rel);
      return;
    }
    if (!stat.isDirectory()) return;
    for (const e of readdirSync(join(worktree, rel))) if (e !== '.git' && e !== 'node_modules') walk(`${rel}/${e}`);
  };
  for (const o of owns) {
    const rel = normalizeOwnedPath(o);
    if (rel && rel !== '.' && !/[*?[]/.test(rel)) walk(rel);
  }
  return [...new Set(out)];
}

/** The errors of the task's files when it starts. */
export async function problemsBefore(problems: ProblemsPort, worktree: string, owns: readonly string[], signal: AbortSignal): Promise<ProblemsBefore> {
  const files = ownedFiles(worktree, owns);
  if (!files.length) return {};
  const found = await problems.errors(
    files.map((f) => join(worktree, f)),
    signal,
  );
  const out: ProblemsBefore = {};
  for (const [abs, list] of found) if (list.length) out[repoRelative(worktree, abs)] = list.map(keyOf);
  return out;
}

export interface NewProblems {
  file: string;
  problems: Problem[];
}

/** The errors now on `files` (worktree-relative) that were not there before, file by file. */
export async function newProblems(problems: ProblemsPort, worktree: string, files: readonly string[], before: ProblemsBefore, signal: AbortSignal): Promise<NewProblems[]> {
  if (!files.length) return [];
  const found = await problems.errors(
    files.map((f) => join(worktree, f)),
    signal,
  );
  const out: NewProblems[] = [];
  for (const file of files) {
    const now = found.get(join(worktree, file)) ?? [];
    // Counted: an error that was there twice before and is there three times now is new once.
    const left = new Map<string, number>();
    for (const k of Object.hasOwn(before, file) ? before[file] : []) left.set(k, (left.get(k) ?? 0) + 1);
    const fresh = now.filter((p) => {
      const n = left.get(keyOf(p)) ?? 0;
      if (n > 0) {
        left.set(keyOf(p), n - 1);
        return false;
      }
      return true;
    });
    if (fresh.length) out.push({ file, problems: fresh });
  }
  return out;
}

const MAX_ITEMS = 20;

/** One fix item per new error, the file and line named (at most 20). */
export function newProblemFixItems(found: readonly NewProblems[], lang: Language): FixItem[] {
  const items = found.flatMap(({ file, problems }) =>
    problems.map((p): FixItem => ({
      problem: t('fixItem.newProblem', { file, line: p.line, message: p.message.replace(/\s+/g, ' ').trim(), source: [p.source, p.code].filter(Boolean).join(' ') || '-' }, lang),
      file,
      location: t('fixItem.line', { line: p.line }, lang),
      severity: t('fixItem.blocker', {}, lang),
      direction: t('fixItem.newProblem.direction', {}, lang),
    })),
  );
  return items.slice(0, MAX_ITEMS);
}

/** How many new errors, for the log and the progress line. */
export const countProblems = (found: readonly NewProblems[]) => found.reduce((n, f) => n + f.problems.length, 0);
