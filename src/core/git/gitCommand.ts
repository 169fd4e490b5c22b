/**
 * The core's one git client: every git command Loom runs (checkpoints, task worktrees, the
 * feature worktree, diffs, drift, the setup check) goes through `gitOutput`/`git` here, on
 * simple-git's `raw()`, with the same options, environment and error wording. The bypasses,
 * for a command's standard input (`gitWithInput`) and for output read as it comes (`gitStream`),
 * are below.
 */
import { LoomError } from '../errors';
import type { SimpleGitOptions } from 'simple-git';
import { childProcess } from '../nodeModules';
import { inWorktreeTurn } from './worktreeTurns';

/** git said no: the command, the folder it ran in and git's own words. */
export class GitError extends LoomError {
  constructor(
    message: string,
    readonly exitCode: number | null = null,
    readonly stderr = '',
  ) {
    super(message);
  }
}

export interface GitOptions {
  signal?: AbortSignal;
  /** Extra environment (a temporary index, an identity). */
  env?: NodeJS.ProcessEnv;
  /** Written to git's standard input. */
  input?: string;
  /** The git executable; `git` on the PATH by default (tests stand in one of their own). */
  binary?: string;
}

export interface GitOutput {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * simple-git guards against options slipped in from outside (an `--upload-pack`, a `core.pager`
 * set through the environment). Loom's arguments are its own and the environment is the user's
 * (an EDITOR, a PAGER, a GIT_CONFIG_GLOBAL), so every guard is off; a new one fails to compile here.
 */
const OWN_ARGUMENTS: Required<SimpleGitOptions['unsafe']> = {
  allowUnsafeAlias: true,
  allowUnsafeAskPass: true,
  allowUnsafeConfigEnvCount: true,
  allowUnsafeConfigPaths: true,
  allowUnsafeCredentialHelper: true,
  allowUnsafeDiffExternal: true,
  allowUnsafeDiffTextConv: true,
  allowUnsafeEditor: true,
  allowUnsafeFilter: true,
  allowUnsafeFsMonitor: true,
  allowUnsafeGitProxy: true,
  allowUnsafeGpgProgram: true,
  allowUnsafeHooksPath: true,
  allowUnsafeMergeDriver: true,
  allowUnsafePack: true,
  allowUnsafePager: true,
  allowUnsafeProtocolOverride: true,
  allowUnsafeSshCommand: true,
  allowUnsafeTemplateDir: true,
  // Only the tests name another binary, always a plain path.
  allowUnsafeCustomBinary: false,
};

/**
 * The environment of every git command: never a prompt for credentials (a command would wait for
 * a person who is not there), and git's output fully buffered: into a pipe git otherwise flushes
 * after each record (each commit of a log), and every flush wakes the reader; drift's log of
 * 10,000 commits took 1.02 s through the pipe that way, 0.86 s with GIT_FLUSH=0, the same as into a
 * file. Each command's output is read whole or parsed in pieces, so no caller waits on a record.
 */
const gitEnv = (extra?: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({ ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_FLUSH: '0', ...extra });

/**
 * One git command in `cwd`, its paths taken literally (a file named `:x` or `*` is that file) and
 * never quoted in the output; cancelled with `signal`. Resolves with what git printed, whatever
 * its exit code: a caller that reads a non-zero code as an answer (merge-tree's conflicts) says
 * so; the others use `git`. Run by simple-git, loaded on first use (it costs the extension's
 * activation ~10 ms otherwise).
 */
export async function gitOutput(cwd: string, args: readonly string[], options: GitOptions = {}): Promise<GitOutput> {
  if (options.signal?.aborted) throw options.signal.reason;
  return inWorktreeTurn(args, () => (options.input !== undefined ? gitWithInput(cwd, args, options) : gitRaw(cwd, args, options)));
}

/** One git command through simple-git (gitOutput without a standard input). */
async function gitRaw(cwd: string, args: readonly string[], options: GitOptions): Promise<GitOutput> {
  const { simpleGit } = await import('simple-git');
  let result: { exitCode: number; stdErr: Buffer[] } | undefined;
  let stdout: string;
  try {
    const client = simpleGit({
      baseDir: cwd,
      binary: options.binary ?? 'git',
      config: ['core.quotepath=off'],
      abort: options.signal,
      unsafe: OWN_ARGUMENTS,
      // A non-zero exit is git's answer, given to the caller with its code; only a command that
      // did not run (cancelled, not started) is an error.
      errors: (error, r) => {
        result = r;
        return r.exitCode > 0 && !options.signal?.aborted ? undefined : error;
      },
    });
    client.env(gitEnv(options.env));
    stdout = await client.raw(['--literal-pathspecs', ...args]);
  } catch (e) {
    if (options.signal?.aborted) throw options.signal.reason;
    throw new GitError(`git ${args[0]} could not start in ${cwd}: ${firstLine(e)}`);
  }
  return { code: result?.exitCode ?? 0, stdout, stderr: Buffer.concat(result?.stdErr ?? []).toString('utf8') };
}

/** simple-git's error says the cause on its first line (`Error: spawn git ENOENT`), a stack after it. */
const firstLine = (e: unknown) =>
  (e instanceof Error ? e.message : String(e))
    .trim()
    .split('\n')[0]
    .replace(/^Error: /, '');

/**
 * The one bypass of simple-git: it cannot write to a command's standard input, and two commands
 * read theirs: commit-tree's message (taken byte for byte; `-m` would add a newline) and
 * update-index's `-z --stdin` path list (longer than a command line may be).
 */
function gitWithInput(cwd: string, args: readonly string[], options: GitOptions): Promise<GitOutput> {
  return new Promise((resolve, reject) => {
    const child = childProcess().spawn(options.binary ?? 'git', ['-c', 'core.quotepath=off', '--literal-pathspecs', ...args], {
      cwd,
      env: gitEnv(options.env),
      signal: options.signal,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', (e) => reject(options.signal?.aborted ? options.signal.reason : new GitError(`git ${args[0]} could not start in ${cwd}: ${e.message}`)));
    child.on('close', (code) => {
      if (options.signal?.aborted) {
        reject(options.signal.reason);
        return;
      }
      resolve({ code: code ?? -1, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input);
  });
}

/**
 * One git command whose output is handed to `onText` as it comes, decoded (a character split
 * between two pieces is kept whole): drift parses a log of thousands of commits while git still
 * walks the history, rather than after, and never holds it whole. Resolves with git's exit code
 * and its error output; rejects only when git cannot start or `signal` cancels it.
 */
export function gitStream(cwd: string, args: readonly string[], onText: (text: string) => void, options: Pick<GitOptions, 'signal' | 'binary'> = {}): Promise<{ code: number; stderr: string }> {
  if (options.signal?.aborted) return Promise.reject(options.signal.reason);
  return new Promise((resolve, reject) => {
    const child = childProcess().spawn(options.binary ?? 'git', ['-c', 'core.quotepath=off', '--literal-pathspecs', ...args], {
      cwd,
      env: gitEnv(),
      signal: options.signal,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const err: Buffer[] = [];
    // What `onText` threw: git is stopped and the promise rejects with it, never an uncaught exception.
    let failed: { error: unknown } | undefined;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text: string) => {
      if (failed) return;
      try {
        onText(text);
      } catch (error) {
        failed = { error };
        child.kill();
      }
    });
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', (e) => reject(options.signal?.aborted ? options.signal.reason : new GitError(`git ${args[0]} could not start in ${cwd}: ${e.message}`)));
    child.on('close', (code) => {
      if (options.signal?.aborted) reject(options.signal.reason);
      else if (failed) reject(failed.error);
      else resolve({ code: code ?? -1, stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

/** One git command that must succeed: its output, or a GitError with git's message. */
export async function git(cwd: string, args: readonly string[], options: GitOptions = {}): Promise<string> {
  const r = await gitOutput(cwd, args, options);
  if (r.code !== 0) throw new GitError(`git ${args[0]} failed in ${cwd}: ${(r.stderr || r.stdout).trim() || `exit code ${r.code}`}`, r.code, r.stderr);
  return r.stdout;
}

/** The commit a revision names, or undefined when it names none (an unborn branch). */
export async function revParse(cwd: string, rev: string, signal?: AbortSignal): Promise<string | undefined> {
  const r = await gitOutput(cwd, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], { signal });
  return r.code === 0 ? r.stdout.trim() : undefined;
}

/** The tree of a commit. */
export async function treeOf(cwd: string, commit: string, signal?: AbortSignal): Promise<string> {
  return (await git(cwd, ['rev-parse', '--verify', `${commit}^{tree}`], { signal })).trim();
}

/** The branch checked out in a worktree (`feature/x`), or undefined when its HEAD is detached. */
export async function currentBranch(cwd: string, signal?: AbortSignal): Promise<string | undefined> {
  const r = await gitOutput(cwd, ['symbolic-ref', '--quiet', '--short', 'HEAD'], { signal });
  return r.code === 0 ? r.stdout.trim() : undefined;
}

/** Paths of a `-z` listing: NUL-separated, the empty tail dropped. */
export const zList = (text: string): string[] => text.split('\0').filter((p) => p.length > 0);

/**
 * Who a commit made by Loom is by: the repository's own identity when git has one, else Loom's,
 * so a checkpoint never fails for want of `user.email` (a fresh CI machine).
 */
export async function commitIdentity(cwd: string, signal?: AbortSignal): Promise<NodeJS.ProcessEnv> {
  const r = await gitOutput(cwd, ['var', 'GIT_COMMITTER_IDENT'], { signal });
  if (r.code === 0) return {};
  return { GIT_AUTHOR_NAME: 'Loom', GIT_AUTHOR_EMAIL: 'loom@localhost', GIT_COMMITTER_NAME: 'Loom', GIT_COMMITTER_EMAIL: 'loom@localhost' };
}
