import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { normalizeOwnedPath } from '../fs/paths';

/**
 * Every path a model names is confined to the feature's worktree: no `..`, nothing under
 * `.git`, and no symlink that leads outside (checked on the real path of the deepest part that
 * exists, so a new file inside a linked folder is caught too).
 */
export type Resolved = { ok: true; abs: string; rel: string } | { ok: false; reason: string };

export class WorktreeBoundary {
  readonly root: string;
  private readonly realRoot: string;

  constructor(worktree: string) {
    this.root = resolve(worktree);
    this.realRoot = realpathSync(this.root);
  }

  resolve(raw: unknown): Resolved {
    if (typeof raw !== 'string') return { ok: false, reason: 'the path must be a string' };
    if (raw.includes('\0')) return { ok: false, reason: 'the path contains a NUL character' };
    let p = raw.trim().replace(/\\/g, '/');
    if (isAbsolute(p) || /^[A-Za-z]:\//.test(p)) {
      const r = relative(this.root, resolve(p));
      if (r === '') p = '.';
      else if (r.startsWith('..') || isAbsolute(r)) return { ok: false, reason: `${raw} is outside the worktree` };
      else p = r.split(sep).join('/');
    }
    const segments = p.split('/').filter((s) => s !== '' && s !== '.');
    if (segments.includes('..')) return { ok: false, reason: `${raw}: paths may not contain ".."` };
    if (segments.some((s) => s.toLowerCase() === '.git')) return { ok: false, reason: `${raw}: nothing under .git may be read or written` };
    const named = segments.length ? join(this.root, ...segments) : this.root;
    const real = this.realOfDeepestExisting(named);
    if (real === undefined) return { ok: false, reason: `${raw} cannot be resolved` };
    const realRel = relative(this.realRoot, real);
    if (realRel.startsWith('..') || isAbsolute(realRel)) return { ok: false, reason: `${raw} leads outside the worktree through a symbolic link` };
    if (realRel.split(sep).some((s) => s.toLowerCase() === '.git')) return { ok: false, reason: `${raw} leads into .git through a symbolic link` };
    // The real path is what owns and the test-file rules judge: a link inside the worktree
    // must not turn a write to `src/other` into one to an owned folder.
    const rel = realRel.split(sep).join('/');
    return { ok: true, abs: rel ? join(this.root, ...rel.split('/')) : this.root, rel };
  }

  private realOfDeepestExisting(abs: string): string | undefined {
    let current = abs;
    const rest: string[] = [];
    for (;;) {
      try {
        return join(realpathSync(current), ...rest);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT' && code !== 'ENOTDIR') return undefined;
        const parent = dirname(current);
        if (parent === current) return undefined;
        rest.unshift(current.slice(parent.length + 1));
        current = parent;
      }
    }
  }
}

/** `owns` as loom declares it: a path, or a folder that covers everything under it. */
export function ownsAllows(owns: readonly string[], rel: string): boolean {
  const path = normalizeOwnedPath(rel);
  return owns.some((o) => {
    const own = normalizeOwnedPath(o);
    return own === '' || own === '.' || path === own || path.startsWith(`${own}/`);
  });
}
