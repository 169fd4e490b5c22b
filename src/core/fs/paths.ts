import { relative, sep } from 'node:path';

/** Repository-relative path with forward slashes, the form loom's files and our diagnostics use. */
export function repoRelative(repoRoot: string, absolute: string): string {
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
