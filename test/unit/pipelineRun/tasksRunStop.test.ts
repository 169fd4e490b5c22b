import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { ExecutingOutcome } from '../../../src/core/executing/machine/runTypes';
import type { TasksOutcome } from '../../../src/core/pipelineRun/pipelineRun';
import { currentStop, RunStopsFile, stateFacts, waitsForPerson } from '../../../src/core/pipelineRun/runStopRecord';
import { tasksRunStop } from '../../../src/core/pipelineRun/tasksStop';
import type { SpecSnapshot } from '../../../src/core/specdir/specSnapshot';
import { LoomRepository } from '../../../src/core/repository/loomRepository';

// Issue 44, item 5: Run Tasks started on its own (the palette, the tree) stops as Run Pipeline's
// tasks stage does (a breaker, no model, the budget, a step that failed, Stop Tasks), and that
// stop is kept the same way (its stop record: the tree row's "waiting for you since 14:02", the
// status bar, the dashboard), read one way (tasksStop) for both.

delete process.env.NODE_TEST_CONTEXT;

const DUE = 'specs/2026-11-25+due-dates';
const noReports = { reports: new Map() } as unknown as SpecSnapshot;
const ran = (outcome: ExecutingOutcome, extra: Partial<Extract<TasksOutcome, { kind: 'ran' }>> = {}): TasksOutcome => ({
  kind: 'ran',
  outcome,
  message: `it ended ${outcome}`,
  finished: [],
  ...extra,
});

test("Run Tasks' stops read as Run Pipeline's tasks stage reads them, each waiting for the person", () => {
  const cases: [TasksOutcome, string][] = [
    [ran('blocked'), 'breaker'],
    [ran('replan'), 'breaker'],
    [ran('needs-context'), 'needs-context'],
    [ran('budget-exceeded'), 'budget'],
    [ran('model-unavailable'), 'model-unavailable'],
    // A step that failed where no rule expected it: running the tasks again resumes it (not the breaker's choice).
    [ran('blocked', { resumeWith: 'run-tasks' }), 'tasks-stopped'],
    // Stop Tasks.
    [ran('cancelled'), 'tasks-stopped'],
    // No model at all, said before the consent (the actor's `no-model` refusal).
    [{ kind: 'refused', message: 'no language model can run the tasks', code: 'no-model' }, 'model-unavailable'],
  ];
  for (const [outcome, reason] of cases) {
    const stop = tasksRunStop(outcome, noReports, 'executing');
    assert.equal(stop.reason, reason, JSON.stringify(outcome));
    assert.equal(stop.stage, 'executing');
    assert.equal(stop.message, outcome.message);
    assert.deepEqual(stop.stages, []);
    assert.equal(waitsForPerson(stop.reason), true, reason);
  }
});

test('tasks all done end the stop; a test report that does not pass is a check still failing', () => {
  const done = tasksRunStop(ran('completed'), noReports, 'executing');
  assert.equal(done.reason, 'done');
  assert.equal(waitsForPerson(done.reason), false);
  const failing = { reports: new Map([['test-report.md', { verdict: 'FAIL' }]]) } as unknown as SpecSnapshot;
  assert.equal(tasksRunStop(ran('completed'), failing, 'executing').reason, 'check-failed');
});

test('a Run Tasks stop is kept as a run stop record (by run-tasks) across a reload, and the next Run Tasks that ends its tasks clears it', () => {
  const root = mkdtempSync(join(tmpdir(), 'loom-tasks-stop-'));
  const storage = mkdtempSync(join(tmpdir(), 'loom-tasks-stop-storage-'));
  try {
    cpSync(join(__dirname, '../../../sample'), root, { recursive: true });
    const spec = new LoomRepository(root).get(DUE)!;
    const facts = stateFacts(spec.stage, spec.snapshot)!;
    const dir = join(root, DUE);
    const breaker = tasksRunStop(ran('blocked'), spec.snapshot, spec.stage ?? '-');
    new RunStopsFile(storage).put({ dir, mode: 'supervised', by: 'run-tasks', at: '2026-12-01T14:02:00.000Z', state: facts, stop: breaker });

    // Another window (a reload) reads it back, by whom it was made and all.
    const kept = new RunStopsFile(storage).get(dir);
    assert.equal(kept?.by, 'run-tasks');
    assert.equal(kept?.stop.reason, 'breaker');
    assert.equal(currentStop(kept, stateFacts(spec.stage, spec.snapshot)), kept, 'still the spec’s stop');

    const file = new RunStopsFile(storage);
    file.put({ dir, mode: 'supervised', by: 'run-tasks', at: '2026-12-01T15:00:00.000Z', state: facts, stop: tasksRunStop(ran('completed'), spec.snapshot, spec.stage ?? '-') });
    const after = new RunStopsFile(storage).get(dir)!;
    assert.equal(waitsForPerson(after.stop.reason), false, 'nothing waits for the person any more');
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(storage, { recursive: true, force: true });
  }
});
