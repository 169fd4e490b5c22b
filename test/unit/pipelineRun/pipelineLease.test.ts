import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { SpecLockedError } from '../../../src/core/errors';
import { acquirePipelineLease, acquireSpecLease, pipelineHeldElsewhere } from '../../../src/core/executing/runLease';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { lockText, readRunLock } from '../../../src/core/store/runLock';
import { SPEC, state, TempRepo } from '../../helpers/tempRepo';

// Issue 34, item 4: a pipeline run "never runs twice on one spec", across windows too. Each VS Code
// window has its own extension host process: the run holds the spec's `.loom-run.lock` (loom's
// lock, as Run Tasks's lease does), so another process is refused and told who holds it.

function specIn(r: TempRepo) {
  r.write(`${SPEC}/pipeline.state.json`, state('brainstorming'));
  return new LoomRepository(r.root).load().get(SPEC)!.snapshot;
}

/** Another live process (another window's extension host), for the lock to name. */
async function otherProcess<T>(fn: (pid: number) => T): Promise<T> {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('spawn', resolve));
  try {
    return fn(child.pid!);
  } finally {
    child.kill();
  }
}

test('the run holds the spec’s lock for its whole run, with a run’s token, and lets go of it at the end', () => {
  const r = new TempRepo();
  try {
    const spec = specIn(r);
    const release = acquirePipelineLease(spec, '2026-12-04T21:00:00.000Z');
    const lock = readRunLock(spec.dir);
    assert.equal(lock?.pid, process.pid);
    assert.equal(lock?.run, true);
    assert.match(lock!.raw, /\n2026-12-04T21:00:00\.000Z\nrun-/);
    // The run's own work takes the lock again in this process: Run Tasks's lease goes through.
    const tasks = acquireSpecLease(spec, '2026-12-04T21:01:00.000Z');
    tasks();
    assert.ok(existsSync(`${spec.dir}/.loom-run.lock`), 'Run Tasks ending does not end the run’s hold');
    release();
    assert.equal(readRunLock(spec.dir), undefined);
  } finally {
    r.dispose();
  }
});

test('a second window (another process) holding the run is refused at once, told its pid, since when and the lock file; nothing changes', async () => {
  const r = new TempRepo();
  try {
    const spec = specIn(r);
    await otherProcess((pid) => {
      const theirs = lockText(pid, '2026-12-04T20:55:00.000Z', 'run-0123456789abcdef');
      r.write(`${SPEC}/.loom-run.lock`, theirs);
      let error: unknown;
      try {
        acquirePipelineLease(spec, '2026-12-04T21:00:00.000Z');
      } catch (e) {
        error = e;
      }
      assert.ok(error instanceof SpecLockedError, String(error));
      assert.equal(error.pid, pid);
      assert.equal(
        pipelineHeldElsewhere(spec, error),
        `The pipeline of ${SPEC} is already being run by another window or process (pid ${pid}, since 2026-12-04T20:55:00.000Z); it holds ${SPEC}/.loom-run.lock. Stop it there, or wait for it to stop.`,
      );
      assert.equal(readFileSync(r.path(`${SPEC}/.loom-run.lock`), 'utf8'), theirs, 'their lock stays');
    });
  } finally {
    r.dispose();
  }
});

test('a run of a window that is gone (its process ended, e.g. a reload) is taken over by the next window', () => {
  const r = new TempRepo();
  try {
    const spec = specIn(r);
    // No process has pid 2^22 + 1 on Linux (pid_max is at most 2^22).
    r.write(`${SPEC}/.loom-run.lock`, lockText(4194305, '2026-12-04T20:55:00.000Z', 'run-0123456789abcdef'));
    const release = acquirePipelineLease(spec, '2026-12-04T21:00:00.000Z');
    assert.equal(readRunLock(spec.dir)?.pid, process.pid);
    release();
  } finally {
    r.dispose();
  }
});
