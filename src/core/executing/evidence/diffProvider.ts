import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseNameStatus } from '../../git/checkpoints';
import { git, GitError } from '../../git/gitCommand';
import { nodeCrypto } from '../../nodeModules';

export { GitError };

/**
 * What the reviewer sees: the worktree's changes since the task started. `snapshot` records the
 * worktree as it is (an opaque id, persisted in the task state so a resumed task still diffs from
 * its real start); `diffSince` compares the worktree now with it. Nothing is committed here: a
 * task's checkpoint is made when it is done (src/core/git/checkpoints.ts).
 */
export type ChangeKind = 'added' | 'modified' | 'deleted';

export interface WorktreeDiff {
  text: string;
  files: { path: string; change: ChangeKind }[];
}

export interface DiffProvider {
  snapshot(signal: AbortSignal): Promise<string>;
  diffSince(base: string, signal: AbortSignal): Promise<WorktreeDiff>;
}

/**
 * How many times `git add` runs when a file it listed was gone before it read it: tasks of a
 * parallel batch write their state files through a temporary file renamed into place, and one
 * task's snapshot may list another's temporary file a moment before the rename.
 */
const ADD_ATTEMPTS = 3;
const VANISHED = /No such file or directory/;

/**
 * git without touching the user's index, branch or stash: the worktree (tracked and untracked
 * files, .gitignore respected) is written as a tree object through a temporary index, and two
 * trees are compared. `exclude`: worktree-relative paths never counted (the dependency folders a
 * task worktree borrows through a link, which git would see as a new file).
 */
export class GitDiffProvider implements DiffProvider {
  private readonly exclude: readonly string[];
  private readonly binary?: string;

  constructor(
    private readonly worktree: string,
    options: { exclude?: readonly string[]; git?: string } = {},
  ) {
    this.exclude = options.exclude ?? [];
    this.binary = options.git;
  }

  async snapshot(signal: AbortSignal): Promise<string> {
    const index = join(tmpdir(), `loom-index-${process.pid}-${nodeCrypto().randomBytes(6).toString('hex')}`);
    const env = { GIT_INDEX_FILE: index };
    try {
      try {
        await git(this.worktree, ['read-tree', 'HEAD'], { signal, env, binary: this.binary });
      } catch (e) {
        if (signal.aborted) throw e;
        // A repository without a commit yet starts from the empty tree.
        await git(this.worktree, ['read-tree', '--empty'], { signal, env, binary: this.binary });
      }
      for (let attempt = 1; ; attempt++) {
        try {
          await git(this.worktree, ['add', '-A', '--', '.'], { signal, env, binary: this.binary });
          break;
        } catch (e) {
          if (signal.aborted || attempt === ADD_ATTEMPTS || !(e instanceof GitError) || !VANISHED.test(e.message)) throw e;
        }
      }
      if (this.exclude.length) await git(this.worktree, ['update-index', '--force-remove', '--', ...this.exclude], { signal, env, binary: this.binary });
      return (await git(this.worktree, ['write-tree'], { signal, env, binary: this.binary })).trim();
    } finally {
      rmSync(index, { force: true });
      rmSync(`${index}.lock`, { force: true });
    }
  }

  async diffSince(base: string, signal: AbortSignal): Promise<WorktreeDiff> {
    if (!/^[0-9a-f]{40,64}$/.test(base)) throw new GitError(`not a tree id: ${base}`);
    const now = await this.snapshot(signal);
    const text = await git(this.worktree, ['diff', '--no-color', '--no-ext-diff', '--no-renames', base, now], { signal, binary: this.binary });
    const names = await git(this.worktree, ['diff', '--name-status', '--no-renames', '-z', base, now], { signal, binary: this.binary });
    return { text, files: parseNameStatus(names) };
  }
}
