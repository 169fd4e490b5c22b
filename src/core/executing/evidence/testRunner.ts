import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LoomError } from '../../errors';
import { childProcess } from '../../nodeModules';

/** Running the project's test command: only in a trusted workspace, cancellable, with a time limit. */
export interface TestRun {
  command: string;
  /** null when the process was killed (timeout or cancellation). */
  exitCode: number | null;
  /** stdout and stderr as they came, possibly shortened in the middle. */
  output: string;
  timedOut: boolean;
  durationMs: number;
}

export interface TestRunner {
  run(command: string, cwd: string, options: { signal: AbortSignal; timeoutMs: number }): Promise<TestRun>;
}

/** Commands run only when the workspace is trusted (VS Code's workspace trust, mapped by the host). */
export class UntrustedWorkspaceError extends LoomError {
  constructor() {
    super('running the test command needs a trusted workspace; trust this folder to let Loom run it');
  }
}

const MAX_OUTPUT = 2 * 1024 * 1024;

/** Keeps the head and the tail of a long output, where the summary and the failures are. */
function boundedOutput(): { add(chunk: Buffer): void; text(): string } {
  const head: Buffer[] = [];
  let headSize = 0;
  let tail: Buffer[] = [];
  let tailSize = 0;
  let dropped = 0;
  return {
    add(chunk) {
      if (headSize < MAX_OUTPUT / 2) {
        head.push(chunk);
        headSize += chunk.length;
        return;
      }
      tail.push(chunk);
      tailSize += chunk.length;
      while (tailSize > MAX_OUTPUT / 2 && tail.length > 1) {
        dropped += tail[0].length;
        tailSize -= tail[0].length;
        tail = tail.slice(1);
      }
    },
    text() {
      const middle = dropped ? `\n… (${dropped} bytes of output left out) …\n` : '';
      return Buffer.concat(head).toString('utf8') + middle + Buffer.concat(tail).toString('utf8');
    },
  };
}

/**
 * Runs the command through the shell in its own process group, so a timeout or a cancellation
 * kills the whole tree (a test runner's workers included), not just the shell.
 */
export class NodeTestRunner implements TestRunner {
  constructor(private readonly env: NodeJS.ProcessEnv = process.env) {}

  run(command: string, cwd: string, options: { signal: AbortSignal; timeoutMs: number }): Promise<TestRun> {
    const started = Date.now();
    return new Promise((resolvePromise, reject) => {
      if (options.signal.aborted) {
        reject(options.signal.reason);
        return;
      }
      const child = childProcess().spawn(command, { cwd, shell: true, detached: process.platform !== 'win32', env: { ...this.env, CI: this.env.CI ?? '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
      const out = boundedOutput();
      child.stdout?.on('data', (c: Buffer) => out.add(c));
      child.stderr?.on('data', (c: Buffer) => out.add(c));
      let timedOut = false;
      let killTimer: NodeJS.Timeout | undefined;
      const kill = () => {
        const signalTree = (sig: NodeJS.Signals) => {
          try {
            if (child.pid && process.platform !== 'win32') process.kill(-child.pid, sig);
            else child.kill(sig);
          } catch {
            // Already gone.
          }
        };
        signalTree('SIGTERM');
        killTimer = setTimeout(() => signalTree('SIGKILL'), 2000);
        killTimer.unref();
      };
      const timer = setTimeout(() => {
        timedOut = true;
        kill();
      }, options.timeoutMs);
      const onAbort = () => kill();
      options.signal.addEventListener('abort', onAbort, { once: true });
      child.on('error', (e) => {
        clearTimeout(timer);
        options.signal.removeEventListener('abort', onAbort);
        reject(e);
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        if (killTimer) clearTimeout(killTimer);
        options.signal.removeEventListener('abort', onAbort);
        if (options.signal.aborted && !timedOut) {
          reject(options.signal.reason);
          return;
        }
        resolvePromise({ command, exitCode: timedOut ? null : code, output: out.text(), timedOut, durationMs: Date.now() - started });
      });
    });
  }
}

/** The test command a project declares, when the user has not configured one. */
export function detectTestCommand(worktree: string): string | undefined {
  const pkg = join(worktree, 'package.json');
  if (existsSync(pkg)) {
    try {
      const scripts = (JSON.parse(readFileSync(pkg, 'utf8')) as { scripts?: Record<string, unknown> }).scripts ?? {};
      const test = Object.hasOwn(scripts, 'test') ? scripts.test : undefined;
      if (typeof test === 'string' && !/no test specified/.test(test)) return 'npm test';
    } catch {
      // An unreadable package.json names no command.
    }
  }
  if (['pytest.ini', 'pyproject.toml', 'setup.cfg', 'tox.ini'].some((f) => existsSync(join(worktree, f)))) return 'python -m pytest';
  if (existsSync(join(worktree, 'go.mod'))) return 'go test ./...';
  if (existsSync(join(worktree, 'Cargo.toml'))) return 'cargo test';
  const makefile = join(worktree, 'Makefile');
  if (existsSync(makefile) && /^test\s*:/m.test(readFileSync(makefile, 'utf8'))) return 'make test';
  return undefined;
}
