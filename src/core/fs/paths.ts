import { join, relative, sep } from 'node:path';

/**
 * A path `resolve` would return unchanged (most paths here come from `join`): no `.`, `..` or
 * empty segment, no trailing slash. Resolving costs a call for the working folder each time,
 * which in the extension host made `relative` a tenth of a millisecond: a reload's thousand rows
 * spent 90 ms of the host's thread in it.
 */
export const isNormalAbsolute = (p: string) =>
  // What /\/\.{0,2}(?:\/|$)/ finds, by plain searches: a status run asks it of every path it reads (60,000), and the expression was 1.5% of its time.
  process.platform !== 'win32' && p.startsWith('/') && !p.includes('//') && !p.includes('/./') && !p.includes('/../') && !p.endsWith('/') && !p.endsWith('/.') && !p.endsWith('/..');

/**
 * `join(dir, name)` for a folder's entry: `name` is entry names (as readdir gives them, never `.`
 * or `..`) joined by `/`. On POSIX that is the same string without join's normalizing, which a
 * status run paid fifty thousand times (35 of the 465 MB its main thread allocated).
 */
export const entryPath = (dir: string, name: string): string => (sep === '/' && dir.length > 1 && !dir.endsWith('/') ? `${dir}/${name}` : join(dir, name));

/** Repository-relative path with forward slashes, the form loom's files and our diagnostics use. */
export function repoRelative(repoRoot: string, absolute: string): string {
  // A path inside the root, both already normal: what `relative` would return, without resolving them.
  if (absolute.startsWith(repoRoot) && absolute.charCodeAt(repoRoot.length) === 47 /* / */ && isNormalAbsolute(repoRoot) && isNormalAbsolute(absolute)) return absolute.slice(repoRoot.length + 1);
  return relative(repoRoot, absolute).split(sep).join('/');
}

/** `src/a/` and `src\\a` both become `src/a`. */
export function normalizeOwnedPath(p: string): string {
  return p.trim().replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '');
}

/** Loom's schema writes spec files as `specs/<date+feature>/x`; workflow steps may too. */
export function specRelative(p: string): string {
  return p
    .trim()
    .replace(/^specs\/<date\+feature>\//, '')
    .replace(/^\.\//, '');
}
