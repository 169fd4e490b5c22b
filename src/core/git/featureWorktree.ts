import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { SimpleGit } from 'simple-git';
import { t } from '../messages';
import { featureBranchName } from '../specdir/worktree';
import { WorktreeError } from './worktreeError';

export interface FeatureWorktreeRequest {
  /** The repository root (the workspace folder holding the spec). */
  repoRoot: string;
  /** The spec's directory name, `2026-11-29+login`. */
  specName: string;
  /** Absolute spec directory: uncommitted files in its spec root (loom's state files of every spec) do not count as a dirty tree. */
  specDir: string;
  /** `loom.worktree.location`: a folder (absolute, or relative to the repository) that holds the worktrees; empty: loom's `.worktree` in the repository. */
  location: string;
  signal: AbortSignal;
}

export interface FeatureWorktree {
  path: string;
  branch: string;
  /** False when an existing worktree of the branch was reused. */
  created: boolean;
}

interface ListedWorktree {
  path: string;
  branch?: string;
}

function parseWorktreeList(porcelain: string): ListedWorktree[] {
  const out: ListedWorktree[] = [];
  for (const block of porcelain.split(/\n\s*\n/)) {
    const path = /^worktree (.+)$/m.exec(block)?.[1];
    if (path) out.push({ path, branch: /^branch (.+)$/m.exec(block)?.[1] });
  }
  return out;
}

const real = (p: string) => {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
};

/** loom's place for feature worktrees (loom-using-git-worktrees: `git worktree add .worktree/<date>-<name>`). */
export const LOOM_WORKTREE_FOLDER = '.worktree';

/** The folder that holds the worktrees: `location` (absolute, or relative to the repository), else loom's `.worktree`. */
export function worktreeBase(repoRoot: string, location: string): string {
  const trimmed = location.trim() || LOOM_WORKTREE_FOLDER;
  return isAbsolute(trimmed) ? trimmed : resolve(repoRoot, trimmed);
}

/** Where the worktree of `2026-11-29+login` goes: `<location>/2026-11-29-login`, by default `.worktree/2026-11-29-login`. */
export function worktreeTarget(repoRoot: string, specName: string, location: string): string {
  const leaf = featureBranchName(specName).slice('feature/'.length);
  return join(worktreeBase(repoRoot, location), leaf);
}

/**
 * The git-worktree stage: branch `feature/<date>-<name>` and its worktree, created from HEAD, or
 * the existing worktree of that branch reused. Refuses (WorktreeError) outside a repository, in
 * a repository without a commit, with uncommitted changes outside the spec (the worktree would
 * not have them), and when the branch is checked out in the main working tree.
 */
export async function ensureFeatureWorktree(req: FeatureWorktreeRequest): Promise<FeatureWorktree> {
  // Loaded on first use: simple-git (and its debug logger) cost the extension's activation ~10 ms otherwise.
  const { simpleGit } = await import('simple-git');
  const git: SimpleGit = simpleGit({ baseDir: req.repoRoot, abort: req.signal });
  const branch = featureBranchName(req.specName);
  const fail = (e: unknown, command: string): never => {
    if (req.signal.aborted) throw req.signal.reason;
    throw new WorktreeError(t('worktree.gitFailed', { command, detail: (e as Error)?.message?.trim() ?? String(e) }), 'git-failed', e);
  };

  let top: string;
  try {
    top = (await git.revparse(['--show-toplevel'])).trim();
  } catch (e) {
    if (req.signal.aborted) throw req.signal.reason;
    throw new WorktreeError(t('worktree.noRepository', { root: req.repoRoot }), 'no-repository', e);
  }
  try {
    await git.revparse(['--verify', 'HEAD']);
  } catch (e) {
    if (req.signal.aborted) throw req.signal.reason;
    throw new WorktreeError(t('worktree.noCommit', { root: top }), 'no-commit', e);
  }

  const listed = parseWorktreeList(await git.raw(['worktree', 'list', '--porcelain']).catch((e) => fail(e, 'git worktree list')));
  const holder = listed.find((w) => w.branch === `refs/heads/${branch}`);
  if (holder) {
    if (real(holder.path) === real(top)) {
      throw new WorktreeError(t('worktree.checkedOutInRepository', { branch, path: holder.path }), 'checked-out-elsewhere');
    }
    if (existsSync(holder.path)) return { path: holder.path, branch, created: false };
    // A worktree whose folder was deleted: let git forget it, then create it again.
    await git.raw(['worktree', 'prune']).catch((e) => fail(e, 'git worktree prune'));
  }

  const status = await git.status().catch((e) => fail(e, 'git status'));
  // Loom keeps writing the state files of the specs in the main checkout; they are not code.
  const specRoot = relative(real(top), dirname(real(req.specDir)))
    .split('\\')
    .join('/');
  const inSpecRoot = (p: string) => !!specRoot && !specRoot.startsWith('..') && (p === specRoot || p.startsWith(`${specRoot}/`));
  // The worktrees themselves, when they live inside the repository (loom's .worktree/), are not changes either.
  const base = relative(real(top), worktreeBase(real(top), req.location))
    .split('\\')
    .join('/');
  const inWorktrees = (p: string) => !!base && !base.startsWith('..') && !isAbsolute(base) && (p === base || p === `${base}/` || p.startsWith(`${base}/`));
  const dirty = status.files.map((f) => f.path).filter((p) => !inSpecRoot(p) && !inWorktrees(p));
  if (dirty.length) {
    const first = dirty.slice(0, 5).join(', ');
    const files = dirty.length > 5 ? t('worktree.dirtyMore', { shown: first, count: dirty.length }) : first;
    throw new WorktreeError(t('worktree.dirty', { files }), 'dirty');
  }

  const target = worktreeTarget(top, req.specName, req.location);
  if (existsSync(target) && readdirSync(target).length > 0) {
    throw new WorktreeError(t('worktree.pathTaken', { path: target, branch }), 'path-taken');
  }
  const branches = await git.branchLocal().catch((e) => fail(e, 'git branch'));
  const args = branches.all.includes(branch) ? ['worktree', 'add', target, branch] : ['worktree', 'add', '-b', branch, target, 'HEAD'];
  try {
    await git.raw(args);
  } catch (e) {
    if (req.signal.aborted) throw req.signal.reason;
    const msg = (e as Error)?.message ?? String(e);
    if (/already (checked out|used by worktree)/i.test(msg)) {
      throw new WorktreeError(t('worktree.checkedOutElsewhere', { branch, detail: msg.trim() }), 'checked-out-elsewhere', e);
    }
    fail(e, `git ${args.join(' ')}`);
  }
  return { path: target, branch, created: true };
}
