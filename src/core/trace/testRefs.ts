import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { findWorktree } from '../specdir/worktree';

/**
 * Where a test reference of traceability.json is looked for, exactly as loom 3 looks for it, so
 * that a gate of the extension passes only where loom's would. Loom never looks in a feature
 * worktree: a test the worktree holds counts once traceability.json names it through the
 * worktree (`.worktree/<date>-<name>/test/x.test.js`, see `testRefThroughWorktree`), or once the
 * feature is merged. A ref found nowhere loom looks but present in the worktree is reported as
 * such (`worktreeOnly`), so the message can say why loom refuses it and what to write instead.
 *
 * loom has two rules, and each check follows the one of the loom check it mirrors:
 * - traceability.js (`validateTraceabilityFile`, used by verify-artifacts.mjs and the engine):
 *   `stripReferenceTarget` (trim, cut at `#`, then at `::`), `resolveProjectReference`: URL-like
 *   refs (`http:`, `https:`, `urn:`, `sha256:`) are never found, an absolute path is taken as it
 *   is, else the spec directory, else `projectRootForSpecDir`.
 * - converge.mjs and omission-hunt.mjs (`fileExists`): URL-like refs and refs empty once cut
 *   count as present, the ref is cut at its first `#` or `:`, an absolute path is taken as it is,
 *   else the spec directory, else the folder two levels above it.
 * Both ask only whether something exists there (`existsSync`): a folder counts.
 */

/** loom 3 traceability.js `projectRootForSpecDir`: the repository holding `specs/`, else the spec directory itself. */
export function projectRootForSpecDir(specDir: string): string {
  const parent = dirname(specDir);
  return /(?:^|[\\/])specs$/i.test(parent) ? dirname(parent) : specDir;
}

/** loom 3 traceability.js `stripReferenceTarget`. */
export function referenceTarget(ref: string): string {
  return ref.trim().split('#')[0].split('::')[0].trim();
}

const URL_LIKE = /^(?:https?:|urn:|sha256:)/i;

/** loom 3 traceability.js `resolveProjectReference`: the path loom checks, or undefined for a ref it never finds. */
export function resolveProjectReference(specDir: string, file: string, exists: (path: string) => boolean = existsSync): string | undefined {
  if (!file || URL_LIKE.test(file)) return undefined;
  if (isAbsolute(file)) return file;
  const specLocal = join(specDir, file);
  if (exists(specLocal)) return specLocal;
  return join(projectRootForSpecDir(specDir), file);
}

/** loom 3 traceability.js `resolveSpecReference` (evidence): the spec directory, an absolute path as it is; undefined for a ref it never finds. */
export function resolveSpecReference(specDir: string, file: string): string | undefined {
  if (!file || URL_LIKE.test(file)) return undefined;
  return isAbsolute(file) ? file : join(specDir, file);
}

export interface TestRefCheck {
  /** Found where loom looks. */
  exists: boolean;
  /** Absolute path of what was found. */
  path?: string;
  /** Not found where loom looks, but the feature worktree holds it here (absolute). */
  worktreeOnly?: string;
  /** With `worktreeOnly`: the ref as loom would find it, through the worktree (`testRefThroughWorktree`). */
  recordAs?: string;
}

/**
 * A test ref recorded so that loom finds it: a file of the feature worktree, relative to the
 * root loom resolves from (`projectRootForSpecDir`), with `/`; the `#name` / `::name` after it is
 * kept. For the default worktree inside the repository that is `.worktree/<date>-<name>/…`; for
 * one outside it a `../…` path, which loom's join resolves as well. An absolute ref is kept.
 */
export function testRefThroughWorktree(specDir: string, worktree: string, ref: string): string {
  const trimmed = ref.trim();
  const file = referenceTarget(trimmed);
  if (!file || isAbsolute(file) || URL_LIKE.test(file)) return trimmed;
  const target = relative(projectRootForSpecDir(specDir), resolve(worktree, file)).split('\\').join('/');
  return `${target}${trimmed.slice(file.length)}`;
}

/**
 * The other way round, for the subagents, whose tools work inside the worktree: a ref recorded
 * through the worktree, relative to it again (`test/x.test.js#name`); any other ref as it is.
 */
export function testRefInWorktree(specDir: string, worktree: string, ref: string): string {
  const trimmed = ref.trim();
  const file = referenceTarget(trimmed);
  if (!file || isAbsolute(file) || URL_LIKE.test(file)) return ref;
  const inside = relative(resolve(worktree), resolve(projectRootForSpecDir(specDir), file));
  if (!inside || inside.startsWith('..') || isAbsolute(inside)) return ref;
  return `${inside.split('\\').join('/')}${trimmed.slice(file.length)}`;
}

export interface TestRefChecker {
  /** loom's traceability.js rule (verification, the matrix and the closure guard). */
  traceability(ref: string): TestRefCheck;
  /** loom's converge.mjs / omission-hunt.mjs rule. */
  converge(ref: string): TestRefCheck;
}

/** Both rules over one spec, asking the file system at most once per path. */
export function testRefChecker(s: Pick<SpecSnapshot, 'dir' | 'repoRoot' | 'name' | 'state'>): TestRefChecker {
  const known = new Map<string, boolean>();
  const exists = (abs: string) => {
    let found = known.get(abs);
    if (found === undefined) known.set(abs, (found = existsSync(abs)));
    return found;
  };
  let worktree: string | undefined | null = null;
  const missing = (ref: string, file: string): TestRefCheck => {
    if (!file || isAbsolute(file) || URL_LIKE.test(file)) return { exists: false };
    if (worktree === null) worktree = findWorktree(s);
    if (!worktree) return { exists: false };
    const there = resolve(worktree, file);
    return exists(there) ? { exists: false, worktreeOnly: there, recordAs: testRefThroughWorktree(s.dir, worktree, ref) } : { exists: false };
  };
  return {
    traceability(ref) {
      const file = referenceTarget(ref);
      const path = resolveProjectReference(s.dir, file, exists);
      return path !== undefined && exists(path) ? { exists: true, path } : missing(ref, file);
    },
    converge(ref) {
      if (!ref || /^(?:https?:|urn:|sha256:)/.test(ref)) return { exists: true };
      const file = ref.replace(/[#:].*$/, '');
      if (!file) return { exists: true };
      if (file.startsWith('/') || file.startsWith('\\\\')) return exists(file) ? { exists: true, path: file } : missing(ref, file);
      for (const path of [join(s.dir, file), join(dirname(dirname(s.dir)), file)]) if (exists(path)) return { exists: true, path };
      return missing(ref, file);
    },
  };
}
