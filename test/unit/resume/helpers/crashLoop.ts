import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/**
 * The fault-injection loop's machinery: a child process that runs Run Tasks and is killed with
 * SIGKILL at one step, and the end state a run leaves, to compare with a run that was not killed.
 * A kill inside git is a `git` on the child's PATH that runs the real one and kills its caller
 * just before or just after the command named by `LOOM_CRASH_GIT` (a bash pattern over its
 * arguments): a checkpoint's `update-ref`, a merge's, a worktree's removal.
 */
const CHILD = join(__dirname, 'crashChild.ts');

let wrapperDir: string | undefined;

function gitWrapper(): string {
  if (wrapperDir) return wrapperDir;
  const real = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
  wrapperDir = mkdtempSync(join(tmpdir(), 'loom-crash-git-'));
  const script = `#!/bin/bash
if [ -n "$LOOM_CRASH_GIT" ] && [[ " $* " == $LOOM_CRASH_GIT ]]; then
  if [ "$LOOM_CRASH_GIT_WHEN" = before ]; then kill -9 $PPID; exit 137; fi
  "${real}" "$@"; code=$?; kill -9 $PPID; exit $code
fi
exec "${real}" "$@"
`;
  writeFileSync(join(wrapperDir, 'git'), script);
  chmodSync(join(wrapperDir, 'git'), 0o755);
  return wrapperDir;
}

export interface Crash {
  /** In-process points (crashRun.ts, laterStages.ts), `git:before|after:<pattern>`, or `fs:before|after:<path end>[:n]`. */
  at: string;
}

export interface ChildEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs Run Tasks in a child process over the repository at `root`, killed at `at` (none: it runs to its end). */
export function runChild(root: string, at = '', job: 'tasks' | 'verify' | 'answer' | 'sync' = 'tasks'): Promise<ChildEnd> {
  const env: NodeJS.ProcessEnv = { ...process.env, LOOM_CRASH_AT: '', LOOM_CRASH_GIT: '', LOOM_CRASH_GIT_WHEN: '', LOOM_CRASH_FS: '' };
  const git = /^git:(before|after):(.+)$/.exec(at);
  if (git) {
    env.LOOM_CRASH_GIT_WHEN = git[1];
    env.LOOM_CRASH_GIT = git[2];
  } else if (at.startsWith('fs:')) env.LOOM_CRASH_FS = at.slice(3);
  else env.LOOM_CRASH_AT = at;
  env.PATH = `${gitWrapper()}${delimiter}${process.env.PATH ?? ''}`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, root, job], { cwd: process.cwd(), env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

const gitOut = (cwd: string, ...args: string[]) => {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
};

/** Files under `dir` (a few levels down) whose name says a temporary file, or a lock moved aside. */
export function tempFiles(dir: string, depth = 3): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return depth > 0 ? tempFiles(p, depth - 1) : [];
    return e.name.endsWith('.tmp') || e.name.includes('.loom-run.lock.') ? [p] : [];
  });
}

/** What a run left: everything that must be the same whether or not it was killed on the way. */
export function endState(root: string, spec: string, worktree: string) {
  const feature = join(root, worktree);
  const specDir = join(root, spec);
  const read = (p: string) => JSON.parse(readFileSync(join(specDir, p), 'utf8'));
  const tasks = ['T1', 'T2', 'T3'];
  const trace = read('traceability.json').requirements as Record<string, { behaviors: Record<string, { tests: string[]; evidence: string[] }> }>;
  const behaviors = Object.fromEntries(Object.values(trace).flatMap((r) => Object.entries(r.behaviors).map(([b, v]) => [b, { tests: v.tests, hasEvidence: v.evidence.length > 0 }])));
  return {
    statuses: Object.fromEntries(tasks.map((t) => [t, read(`task-states/${t}.state.json`).status])),
    handoffs: Object.fromEntries(tasks.map((t) => [t, [...read(`handoffs/${t}.json`).artifacts].sort()])),
    executingHandoff: existsSync(join(specDir, 'handoffs/executing.json')),
    behaviors,
    /** One commit per task, in the plan's order of merging. */
    commits: gitOut(feature, 'log', '--format=%s', 'HEAD').trim().split('\n'),
    tree: gitOut(feature, 'rev-parse', 'HEAD^{tree}').trim(),
    status: gitOut(feature, 'status', '--porcelain'),
    worktrees: (gitOut(feature, 'worktree', 'list', '--porcelain').match(/^worktree /gm) ?? []).length,
    taskBranches: gitOut(feature, 'branch', '--list', 'loom-task/*').trim(),
    taskFolder: existsSync(`${feature}.tasks`),
    lock: existsSync(join(specDir, '.loom-run.lock')),
    temp: tempFiles(specDir),
  };
}
