import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { newProblemFixItems, newProblems, problemsBefore } from '../../../../src/core/executing/evidence/problems';
import { outsideOwns, unchangedOwns } from '../../../../src/core/executing/evidence/ownedChanges';
import { taskMachine } from '../../../../src/core/executing/machine/taskMachine';
import type { Problem, ProblemsPort } from '../../../../src/core/executing/ports';
import { done, machineHarness, pass, settled, tracedActor, type MachineHarness } from '../helpers/machineHarness';

/**
 * Done means done (issue 35): after the reviewer's PASS a task is done only when it changed what
 * it owns (owns is where it may write: one of its files at least), its tests passed, and the files it changed have no new errors in the Problems
 * panel; each unmet condition goes back to the implementer in fix mode, and `done-check` says which.
 */
const made: MachineHarness[] = [];
const dirs: string[] = [];
after(() => {
  made.forEach((h) => h.repo.dispose());
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

function start(h: MachineHarness) {
  const traced = tracedActor(taskMachine().provide({ actors: h.steps.taskActors() }), h.taskInput('T1'));
  traced.actor.start();
  return traced;
}

/** T1's owns in the executing fixture (helpers/executingFixture.ts), as the done-check names them. */
const OWNS_T1 = 'src/due.js, tests/due.test.js';
const checks = (h: MachineHarness) => h.events.flatMap((e) => (e.type === 'done-check' ? [`${e.check}: ${e.detail}`] : []));

test('a task that changed none of the files it owns goes back to the implementer in fix mode, each named; changed, it is done', async () => {
  const h = machineHarness();
  made.push(h);
  h.steps.script(h.steps.implementer, 'T1', done('T1'), done('T1'));
  h.steps.script(h.steps.reviewer, 'T1', pass, pass);
  const nothing = { text: '', files: [] };
  // Inspected and closed with nothing it owns touched; then the owns, each changed (the default).
  h.steps.diffs = [nothing, nothing];
  const { actor } = start(h);
  const end = await settled(actor);
  assert.deepEqual(end.output?.outcome, { kind: 'done' });
  assert.deepEqual(checks(h), [`owns-unchanged: ${OWNS_T1}`]);
  assert.deepEqual(
    h.steps.callsOf('implementer').map((c) => c.mode),
    ['first', 'fix'],
  );
  assert.equal(h.json('task-states/T1.state.json').retry_count, 1, 'the same retry limit counts it');
});

test('new errors in the Problems panel on the files it changed send it back with file and line; none, it is done', async () => {
  const h = machineHarness();
  made.push(h);
  h.steps.script(h.steps.implementer, 'T1', done('T1'), done('T1'));
  h.steps.script(h.steps.reviewer, 'T1', pass, pass);
  h.steps.problems = [[{ file: 'src/due.js', problems: [{ line: 3, message: "Type 'string' is not assignable to type 'Date'.", source: 'ts', code: '2322' }] }]];
  const { actor, path } = start(h);
  const end = await settled(actor);
  assert.deepEqual(end.output?.outcome, { kind: 'done' });
  assert.deepEqual(checks(h), ['new-problems: src/due.js (1)']);
  assert.ok(path.indexOf('checkingProblems') < path.indexOf('retrying'));
  assert.equal(h.steps.callsOf('tests').length, 2, 'its tests ran before each look at the Problems panel');
});

test('a failing test run after the PASS is a done-check too', async () => {
  const h = machineHarness();
  made.push(h);
  h.steps.script(h.steps.implementer, 'T1', done('T1'), done('T1'));
  h.steps.script(h.steps.reviewer, 'T1', pass, pass);
  h.steps.exitCodes = [1, 0];
  const { actor } = start(h);
  await settled(actor);
  assert.equal(checks(h).length, 1);
  assert.match(checks(h)[0], /^tests-failed: npm test: evidence\/T1-tests-.*\.log$/);
});

test('the fix items of new errors name the file, the line, the service and the message', () => {
  const [item] = newProblemFixItems([{ file: 'src/due.js', problems: [{ line: 3, message: 'Cannot find name  \n x.', source: 'ts', code: '2304' }] }], 'en');
  assert.equal(item.problem, 'not done yet: src/due.js:3 has a new error in the Problems panel (ts 2304): Cannot find name x.');
  assert.equal(item.file, 'src/due.js');
  assert.equal(item.location, 'line 3');
});

/** A Problems panel that reports what the test puts in it, for absolute paths. */
class FakeProblems implements ProblemsPort {
  now = new Map<string, Problem[]>();
  asked: string[][] = [];
  async errors(files: readonly string[]): Promise<Map<string, Problem[]>> {
    this.asked.push([...files]);
    return new Map([...this.now].filter(([f]) => files.includes(f)));
  }
}

test('only errors that were not there when the task started count, counted one by one; a new file had none', async () => {
  const wt = mkdtempSync(join(tmpdir(), 'loom-problems-'));
  dirs.push(wt);
  mkdirSync(join(wt, 'src'));
  writeFileSync(join(wt, 'src/due.js'), 'x\n');
  const panel = new FakeProblems();
  const old: Problem = { line: 1, message: 'Cannot find name x.', source: 'ts', code: '2304' };
  panel.now.set(join(wt, 'src/due.js'), [old]);
  const signal = new AbortController().signal;
  const before = await problemsBefore(panel, wt, ['src/due.js', 'tests/due.test.js'], signal);
  assert.deepEqual(Object.keys(before), ['src/due.js']);
  assert.deepEqual(panel.asked[0], [join(wt, 'src/due.js')], 'only the files that exist are asked about');

  // The old error moved two lines down, the same error once more, and a new file with its own.
  panel.now.set(join(wt, 'src/due.js'), [
    { ...old, line: 3 },
    { ...old, line: 9 },
  ]);
  panel.now.set(join(wt, 'src/new.js'), [{ line: 1, message: "';' expected.", source: 'ts' }]);
  const found = await newProblems(panel, wt, ['src/due.js', 'src/new.js'], before, signal);
  assert.deepEqual(
    found.map((f) => [f.file, f.problems.map((p) => p.line)]),
    [
      ['src/due.js', [9]],
      ['src/new.js', [1]],
    ],
  );
});

test('owns against changes: one owned file changed is enough (a folder by a file under it); with a pattern nothing is checked; outside the owns is named', () => {
  assert.deepEqual(unchangedOwns(['src/due.js', 'tests/'], ['tests/due.test.js']), []);
  // A task convergence appends inherits the source's owns to add a missing test: the source may stay as it is.
  assert.deepEqual(unchangedOwns(['src/due.js', './tests/due.test.js'], ['tests/due.test.js']), []);
  assert.deepEqual(unchangedOwns(['src/due.js', './tests/due.test.js'], ['src/app.js']), ['src/due.js', './tests/due.test.js']);
  assert.deepEqual(unchangedOwns(['src/due.js', 'docs/*.md'], []), []);
  assert.deepEqual(outsideOwns(['src/due.js', 'tests/'], ['src/due.js', 'tests/a.test.js', 'src/app.js']), ['src/app.js']);
});
