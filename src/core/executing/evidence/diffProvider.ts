import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LoomError } from '../../errors';
import { childProcess, nodeCrypto } from '../../nodeModules';

/**
 * What the reviewer sees: the worktree's changes since the task started. `snapshot` records the
 * worktree as it is (an opaque id, persisted in the task state so a resumed task still diffs from
 * its real start); `diffSince` compares the worktree now with it.
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

export class GitError extends LoomError {}

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
 * trees are compared. Nothing is committed.
 */
export class GitDiffProvider implements DiffProvider {
  constructor(
    private readonly worktree: string,
    private readonly git = 'git',
  ) {}

  async snapshot(signal: AbortSignal): Promise<string> {
    const index = join(tmpdir(), `loom-index-${process.pid}-${nodeCrypto().randomBytes(6).toString('hex')}`);
    const env = { ...process.env, GIT_INDEX_FILE: index };
    try {
      try {
        await this.run(['read-tree', 'HEAD'], signal, env);
      } catch (e) {
        if (signal.aborted) throw e;
        // A repository without a commit yet starts from the empty tree.
        await this.run(['read-tree', '--empty'], signal, env);
      }
      for (let attempt = 1; ; attempt++) {
        try {
          await this.run(['add', '-A', '--', '.'], signal, env);
          break;
        } catch (e) {
          if (signal.aborted || attempt === ADD_ATTEMPTS || !(e instanceof GitError) || !VANISHED.test(e.message)) throw e;
        }
      }
      return (await this.run(['write-tree'], signal, env)).trim();
    } finally {
      rmSync(index, { force: true });
      rmSync(`${index}.lock`, { force: true });
    }
  }

  async diffSince(base: string, signal: AbortSignal): Promise<WorktreeDiff> {
    if (!/^[0-9a-f]{40,64}$/.test(base)) throw new GitError(`not a tree id: ${base}`);
    const now = await this.snapshot(signal);
    const text = await this.run(['diff', '--no-color', '--no-ext-diff', '--no-renames', base, now], signal);
    const names = await this.run(['diff', '--name-status', '--no-renames', '-z', base, now], signal);
    const parts = names.split('\0').filter((p) => p.length > 0);
    const files: WorktreeDiff['files'] = [];
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const code = parts[i][0];
      files.push({ path: parts[i + 1], change: code === 'A' ? 'added' : code === 'D' ? 'deleted' : 'modified' });
    }
    return { text, files };
  }

  private run(args: string[], signal: AbortSignal, env: NodeJS.ProcessEnv = process.env): Promise<string> {
    return new Promise((resolve, reject) => {
      childProcess().execFile(this.git, ['-c', 'core.quotepath=off', ...args], { cwd: this.worktree, env, signal, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' }, (error, stdout, stderr) => {
        if (error) {
          if (signal.aborted) reject(signal.reason);
          else reject(new GitError(`git ${args[0]} failed in ${this.worktree}: ${(stderr || error.message).trim()}`));
          return;
        }
        resolve(stdout);
      });
    });
  }
}
