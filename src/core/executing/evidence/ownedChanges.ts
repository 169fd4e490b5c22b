import { normalizeOwnedPath } from '../../fs/paths';
import { t, type Language } from '../../messages';
import type { FixItem } from '../dispatch/fixInstructions';
import { ownsAllows } from '../tools/worktreeBoundary';

/**
 * What a task declares it writes (its `owns`) against what it changed: every file it owns is
 * changed (a folder: something under it), and, in a worktree of its own, nothing outside them.
 */
const isPattern = (p: string) => /[*?[]/.test(p);

/** The owns entries the task did not change. */
export function unchangedOwns(owns: readonly string[], changed: readonly string[]): string[] {
  return owns.filter((o) => {
    const own = normalizeOwnedPath(o);
    if (!own || own === '.' || isPattern(own)) return false;
    return !changed.some((c) => {
      const p = normalizeOwnedPath(c);
      return p === own || p.startsWith(`${own}/`);
    });
  });
}

/** The changed files outside the task's owns. */
export function outsideOwns(owns: readonly string[], changed: readonly string[]): string[] {
  return changed.filter((c) => !ownsAllows(owns, c));
}

export function unchangedOwnsFixItems(files: readonly string[], lang: Language): FixItem[] {
  return files.map((file) => ({
    problem: t('fixItem.ownsUnchanged', { file }, lang),
    file,
    severity: t('fixItem.blocker', {}, lang),
    direction: t('fixItem.ownsUnchanged.direction', { file }, lang),
  }));
}
