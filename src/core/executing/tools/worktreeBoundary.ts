import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { normalizeOwnedPath } from '../../fs/paths';

/**
 * Every path a model names is confined to the feature's worktree: no `..`, nothing under
 * `.git`, and no symlink that leads outside (checked on the real path of the deepest part that
 * exists, so a new file inside a linked folder is caught too). The same paths are refused on
 * every platform: Windows separators, drive letters, UNC and device paths, names Windows reads
 * differently (`.git.`, `GIT~1`, `a.js::$DATA`, `NUL`), and `.git` in any case, as a
 * case-insensitive file system would take it.
 */
export type Resolved = { ok: true; abs: string; rel: string } | { ok: false; reason: string };

export class WorktreeBoundary {
  readonly root: string;
  private readonly realRoot: string;

  constructor(worktree: string) {
    this.root = resolve(worktree);
    // The native realpath gives the name's true case (macOS, Windows) and expands 8.3 short names.
    this.realRoot = realpathSync.native(this.root);
  }

  resolve(raw: unknown): Resolved {
    if (typeof raw !== 'string') return { ok: false, reason: 'the path must be a string' };
    if (raw.includes('\0')) return { ok: false, reason: 'the path contains a NUL character' };
    let p = raw.trim().replace(/\\/g, '/');
    if (/^\/\/[?.]\//.test(p)) return { ok: false, reason: `${raw} is a Windows device or namespace path; name a file of the worktree` };
    if (p.startsWith('//')) return { ok: false, reason: `${raw} is a network (UNC) path, outside the worktree` };
    const drive = /^[A-Za-z]:/.test(p);
    if (drive && p[2] !== '/') return { ok: false, reason: `${raw} is relative to a drive's current folder; use a worktree-relative path` };
    if (isAbsolute(p) || drive) {
      // A drive letter is a path only on Windows; elsewhere it would be read relative to the current folder.
      if (drive && process.platform !== 'win32') return { ok: false, reason: `${raw} is outside the worktree` };
      const r = relative(this.root, resolve(p));
      if (r === '') p = '.';
      else if (r.startsWith('..') || isAbsolute(r)) return { ok: false, reason: `${raw} is outside the worktree` };
      else p = r.split(sep).join('/');
    }
    const segments = p.split('/').filter((s) => s !== '' && s !== '.');
    if (segments.includes('..')) return { ok: false, reason: `${raw}: paths may not contain ".."` };
    for (const segment of segments) {
      const problem = segmentProblem(segment);
      if (problem) return { ok: false, reason: `${raw}: ${problem}` };
    }
    const named = segments.length ? join(this.root, ...segments) : this.root;
    const real = this.realOfDeepestExisting(named);
    if (real === undefined) return { ok: false, reason: `${raw} cannot be resolved` };
    const realRel = relative(this.realRoot, real);
    if (realRel.startsWith('..') || isAbsolute(realRel)) return { ok: false, reason: `${raw} leads outside the worktree through a symbolic link` };
    if (realRel.split(sep).some(isGitName)) return { ok: false, reason: `${raw} leads into .git through a symbolic link` };
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
        return join(realpathSync.native(current), ...rest);
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

/** `.git` as any file system may spell it: any case, and its 8.3 short name on Windows. */
const isGitName = (segment: string) => segment.toLowerCase() === '.git' || /^git~\d+$/i.test(segment);

const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)(\.[^.]*)?$/i;

/** Why one segment of a path is refused; undefined when it is a plain name. */
function segmentProblem(segment: string): string | undefined {
  if (isGitName(segment)) return 'nothing under .git may be read or written';
  // Windows drops trailing dots and spaces: `.git.` is `.git` there.
  if (/[. ]$/.test(segment)) return `the name "${segment}" ends in a dot or a space, which Windows drops`;
  if (segment.includes(':')) return `the name "${segment}" contains ":" (a drive or an alternate data stream on Windows)`;
  // Control characters are forbidden in Windows file names too (a regex would need control characters).
  if (/[<>"|?*]/.test(segment) || [...segment].some((c) => c.charCodeAt(0) < 0x20)) return `the name "${segment}" contains a character Windows does not allow in file names`;
  if (WINDOWS_DEVICE.test(segment)) return `"${segment}" is a device name on Windows, not a file`;
  return undefined;
}

/** `owns` as loom declares it: a path, or a folder that covers everything under it. */
export function ownsAllows(owns: readonly string[], rel: string): boolean {
  const path = normalizeOwnedPath(rel);
  return owns.some((o) => {
    const own = normalizeOwnedPath(o);
    return own === '' || own === '.' || path === own || path.startsWith(`${own}/`);
  });
}
