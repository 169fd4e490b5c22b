import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { addFeatureWorktree, executingFixture, SPEC } from '../../executing/helpers/executingFixture';
import type { TempRepo } from '../../../helpers/tempRepo';
import { endState, runChild } from './crashLoop';
import { runTasksOnce, WORKTREE } from './crashRun';

/**
 * Issue #44's fault-injection loop over Run Tasks: a spec with T1 and T3 in one parallel batch (each in a
 * worktree of its own, merged in task order) and T2 after T1 in the feature worktree. Run Tasks
 * runs in a real child process with real git and a model whose answers follow from the
 * conversation; the process is killed with SIGKILL at one step, then another process (this one)
 * runs the tasks again. Whatever the step, the end is the one a run that was never killed reaches: every task
 * done once, one commit each, the same files, no task worktree, branch, lock or temporary file.
 */

/** Each step in turn, where the process dies (crashRun.ts, crashLoop.ts). */
export const STEPS: [string, string][] = [
  ['T1 implementer, before it wrote', 'implementer:T1'],
  ['T1 implementer, after it wrote its files', 'implementer-tools:T1'],
  ['T3 implementer while T1 waits for its merge (the stranded batch)', 'implementer:T3:T1-merging'],
  ['T1 reviewer', 'reviewer:T1'],
  ["the write of T1's state as it goes to review, before its rename (its temporary file left)", 'fs:before:task-states/T1.state.json:2'],
  ["T1's tests", 'tests:T1'],
  ["T1's Problems check", 'problems:T1'],
  ["T1's checkpoint, before its commit", 'git:before:*update-ref -m loom: T1 checkpoint*'],
  ["T1's checkpoint, just after its commit", 'git:after:*update-ref -m loom: T1 checkpoint*'],
  ["T1's merge, before the branch moves", 'git:before:*update-ref -m loom: merge T1*'],
  ["T1's merge, just after the branch moved", 'git:after:*update-ref -m loom: merge T1*'],
  ["T1's worktree removal", 'git:after:*worktree remove*.tasks/T1 *'],
  ["T1's branch removal", 'git:before:*branch -q -D loom-task/*/T1 *'],
  ["T2's checkpoint in the feature worktree, just after its commit", 'git:after:*update-ref -m loom: T2 checkpoint*'],
  ['the test reporter', 'test-reporter'],
];

/**
 * The run that is never killed, then one test per step of `steps`: killed there, run again, it
 * ends as the run never killed ended. The steps are cut over two files, two processes side by
 * side: in one they were the unit tests' long pole.
 */
export function executingCrashLoop(steps: readonly (readonly [string, string])[]): void {
  const made: TempRepo[] = [];
  after(() => made.forEach((r) => r.dispose()));

  const fixture = (): string => {
    const { repo } = executingFixture({ threeTasks: true });
    made.push(repo);
    addFeatureWorktree(repo, WORKTREE);
    return repo.root;
  };

  let reference: ReturnType<typeof endState>;

  before(async () => {
    const root = fixture();
    const run = await runTasksOnce(root);
    assert.equal(run.outcome, 'completed', run.message);
    reference = endState(root, SPEC, WORKTREE);
  });

  test('the run that is never killed: three tasks, three commits, nothing left behind', () => {
    assert.deepEqual(reference.statuses, { T1: 'done', T2: 'done', T3: 'done' });
    assert.deepEqual(
      reference.commits.map((s) => s.split(':')[0]),
      ['T2', 'T3', 'T1', 'the app with a spec at executing'],
    );
    assert.equal(reference.worktrees, 2);
    assert.equal(reference.taskBranches, '');
    assert.equal(reference.taskFolder, false);
    assert.equal(reference.lock, false);
    assert.deepEqual(reference.temp, []);
    assert.equal(reference.status, '');
    assert.ok(Object.values(reference.behaviors).every((b) => b.tests.length > 0 && b.hasEvidence));
  });

  for (const [name, at] of steps) {
    test(`killed at ${name}: the run started again ends as one never killed`, async () => {
      const root = fixture();
      const killed = await runChild(root, at);
      assert.equal(killed.signal, 'SIGKILL', `the process was not killed at ${at}: ${killed.stdout}${killed.stderr}`);

      // The window that comes up again: a process that never saw the run (this one).
      const result = await runTasksOnce(root);
      assert.equal(result.outcome, 'completed', result.message);
      assert.deepEqual(endState(root, SPEC, WORKTREE), reference);
    });
  }
}
