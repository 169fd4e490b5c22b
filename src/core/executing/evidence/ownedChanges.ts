import { normalizeOwnedPath } from '../../fs/paths';
import { t, type Language } from '../../messages';
import type { FixItem } from '../dispatch/fixInstructions';
import { ownsAllows } from '../tools/worktreeBoundary';

/**
 * What a task declares it writes (its `owns`) against what it changed: something it owns is
 * changed (a folder: something under it), and, in a worktree of its own, nothing outside them.
 */
const isPattern = (p: string) => /[*?[]/.test(p);

/**
 * The owns entries, when the task changed none of them (a folder: nothing under it); else none.
 * `owns` is where a task may write, not a list of files each to be changed: a task convergence
 * appends inherits its requirement's owns to add a missing test, and leaves the source as it is.
 * A task that changed none of its files did nothing it declared.
 */
export function unchangedOwns(owns: readonly string[], changed: readonly string[]): string[] {
  const files = owns.map((o) => ({ o, own: normalizeOwnedPath(o) })).filter(({ own }) => own && own !== '.' && !isPattern(own));
  if (files.length === 0 || files.length < owns.length) return [];
  const touched = files.some(({ own }) =>
    changed.some((c) => {
      const p = normalizeOwnedPath(c);
      return p === own || p.startsWith(`${own}/`);
    }),
  );
  return touched ? [] : files.map(({ o }) => o);
}

/** The changed files outside the task's owns. */
export function outsideOwns(owns: readonly string[], changed: readonly string[]): string[] {
  return changed.filter((c) => !ownsAllows(owns, c));
}

export function unchangedOwnsFixItems(files: readonly string[], lang: Language): FixItem[] {
  const named = files.join(', ');
  return [
    {
      problem: t('fixItem.ownsUnchanged', { files: named }, lang),
      file: files[0],
      severity: t('fixItem.blocker', {}, lang),
      direction: t('fixItem.ownsUnchanged.direction', { files: named }, lang),
    },
  ];
}
