import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { t } from '../messages';
import { featureBranchName } from '../specdir/worktree';
import { gitOutput, zList, type GitOutput } from './gitCommand';
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

/** The paths `git status --porcelain -z` lists: a rename or copy names its new path, then its old one (skipped). */
function statusPaths(z: string): string[] {
  const entries = zList(z);
  const paths: string[] = [];
  for (let i = 0; i < entries.length; i++) {
    paths.push(entries[i].slice(3));
    if (entries[i][0] === 'R' || entries[i][0] === 'C') i++;
  }
  return paths;
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
  const branch = featureBranchName(req.specName);
  const fail = (e: unknown, command: string): never => {
    if (req.signal.aborted) throw req.signal.reason;
    throw new WorktreeError(t('worktree.gitFailed', { command, detail: (e as Error)?.message?.trim() ?? String(e) }), 'git-failed', e);
  };
  const answer = (args: string[], cwd = req.repoRoot) => gitOutput(cwd, args, { signal: req.signal });
  const saidNo = (r: GitOutput) => new Error((r.stderr || r.stdout).trim() || `exit code ${r.code}`);
  /** A command that must succeed: its output, or the WorktreeError naming it with git's words. */
  const run = async (args: string[], cwd: string): Promise<string> => {
    const r = await answer(args, cwd).catch((e) => fail(e, `git ${args.join(' ')}`));
    return r.code === 0 ? r.stdout : fail(saidNo(r), `git ${args.join(' ')}`);
  };

  /** A command whose failure is an answer (no repository, no commit): its output, or why it did not run. */
  const tried = async (args: string[], cwd?: string): Promise<GitOutput | Error> => {
    try {
      const r = await answer(args, cwd);
      return r.code === 0 ? r : saidNo(r);
    } catch (e) {
      if (req.signal.aborted) throw req.signal.reason;
      return e as Error;
    }
  };
  const root = await tried(['rev-parse', '--show-toplevel']);
  if (root instanceof Error) throw new WorktreeError(t('worktree.noRepository', { root: req.repoRoot }), 'no-repository', root);
  const top = root.stdout.trim();
  const head = await tried(['rev-parse', '--verify', 'HEAD'], top);
  if (head instanceof Error) throw new WorktreeError(t('worktree.noCommit', { root: top }), 'no-commit', head);

  const listed = parseWorktreeList(await run(['worktree', 'list', '--porcelain'], top));
  const holder = listed.find((w) => w.branch === `refs/heads/${branch}`);
  if (holder) {
    if (real(holder.path) === real(top)) {
      throw new WorktreeError(t('worktree.checkedOutInRepository', { branch, path: holder.path }), 'checked-out-elsewhere');
    }
    if (existsSync(holder.path)) return { path: holder.path, branch, created: false };
    // A worktree whose folder was deleted: let git forget it, then create it again.
    await run(['worktree', 'prune'], top);
  }

  // Untracked files one by one (`-u`), as the worktree would miss each of them.
  const changed = statusPaths(await run(['status', '--porcelain', '-u', '-z'], top));
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
  const dirty = changed.filter((p) => !inSpecRoot(p) && !inWorktrees(p));
  if (dirty.length) {
    const first = dirty.slice(0, 5).join(', ');
    const files = dirty.length > 5 ? t('worktree.dirtyMore', { shown: first, count: dirty.length }) : first;
    throw new WorktreeError(t('worktree.dirty', { files }), 'dirty');
  }

  const target = worktreeTarget(top, req.specName, req.location);
  if (existsSync(target) && readdirSync(target).length > 0) {
    throw new WorktreeError(t('worktree.pathTaken', { path: target, branch }), 'path-taken');
  }
  const known = await tried(['show-ref', '--verify', '--quiet', `refs/heads/${branch}`], top);
  const args = !(known instanceof Error) ? ['worktree', 'add', target, branch] : ['worktree', 'add', '-b', branch, target, 'HEAD'];
  const added = await answer(args, top).catch((e) => fail(e, `git ${args.join(' ')}`));
  if (added.code !== 0) {
    const said = saidNo(added);
    if (/already (checked out|used by worktree)/i.test(said.message)) {
      throw new WorktreeError(t('worktree.checkedOutElsewhere', { branch, detail: said.message }), 'checked-out-elsewhere', said);
    }
    fail(said, `git ${args.join(' ')}`);
  }
  return { path: target, branch, created: true };
}
