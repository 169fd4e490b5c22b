import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { buildDashboardModel } from '../../../src/core/views/dashboardModel';
import { plannedSpec, SPEC, state, TempRepo } from '../../helpers/tempRepo';

const repos: TempRepo[] = [];
after(() => repos.forEach((r) => r.dispose()));

const at = (h: number) => new Date(Date.UTC(2026, 10, 29, 8 + h)).toISOString();
const passed = (stage: string, h: number, extra: Record<string, unknown> = {}) => ({ stage, entered_at: at(h), exited_at: at(h + 1), status: 'passed', ...extra });
const task = (id: string, deps: string[] = []) => `---\nowns: [src/${id}.ts]\ndepends_on: [${deps.join(', ')}]\nbehavior_ids: [REQ-001-B01]\n---\n# ${id} Title of ${id}\n\nDoes it.\n`;
const finding = (id: string, severity: string, extra: Record<string, unknown> = {}) => ({ id, kind: 'missing', severity, message: `${id} message`, ...extra });

function dashboard(setup: (r: TempRepo) => void) {
  const r = new TempRepo();
  repos.push(r);
  setup(r);
  const spec = new LoomRepository(r.root).load().get(SPEC)!;
  return { r, model: buildDashboardModel(spec) };
}

describe('buildDashboardModel for a spec in executing', () => {
  const { model: m } = dashboard((r) => {
    plannedSpec(r);
    r.write(`${SPEC}/tasks/T2.md`, task('T2', ['T1']));
    r.write(`${SPEC}/tasks/T3.md`, task('T3', ['T2']));
    r.write('src/T1.ts', 'export const now = 2;\n');
    r.write(
      `${SPEC}/pipeline.state.json`,
      state('executing', {
        current_stage_started_at: at(7),
        stage_history: [
          passed('brainstorming', 0, { approval: 'user_confirmed' }),
          passed('detail-expansion', 1),
          { stage: 'planning', entered_at: at(2), exited_at: at(3), status: 'retry', reason: 'plan.md missed REQ-003' },
          passed('planning', 3),
          passed('analyze-artifacts', 4, { validator: 'artifact-analysis-pass' }),
          passed('approved', 5),
          passed('git-worktree', 6),
        ],
        metadata: {
          convergence_round: 1,
          token_usage: {
            total: { input: 300, output: 30 },
            stages: { executing: { input: 300, output: 30 } },
            roles: { implementer: { input: 200, output: 20 } },
            tasks: { T2: { input: 200, output: 20, roles: {} }, T1: { input: 100, output: 10, roles: {} } },
            updated_at: at(8),
          },
        },
      }),
    );
    r.write(`${SPEC}/task-states/T1.state.json`, { task_id: 'T1', status: 'done', retry_count: 0, last_reviewer_result: 'PASS' });
    r.write(`${SPEC}/task-states/T2.state.json`, {
      task_id: 'T2',
      status: 'failed',
      retry_count: 4,
      last_reviewer_result: 'FAIL: counter not persisted',
      blocker: 'circuit breaker: review failed 4 times (max_retries 3)',
      metadata: { breaker: { reason: { kind: 'retries', retryCount: 4, maxRetries: 3 }, opened_at: at(8), last_issues: ['counter not persisted', 'no unlock test'] } },
    });
    r.write(`${SPEC}/handoffs/T1.json`, { status: 'done', summary: 'login done', task_id: 'T1', written_at: at(7), artifact_fingerprints: { 'src/T1.ts': '0'.repeat(64) } });
    r.write(`${SPEC}/artifact-analysis.json`, { stage: 'analyze-artifacts', status: 'pass', findings: [finding('A-1', 'warning', { location: { file: 'plan.md', line: 4 } })], blocker_count: 0 });
    r.write(`${SPEC}/convergence-report.json`, { stage: 'converge', round: 1, status: 'needs_another_round', findings: [finding('C-1', 'blocker', { behavior_id: 'REQ-001-B02' })], blocker_count: 1 });
    r.write(`${SPEC}/findings/omission-hunter.json`, {
      findings: [finding('O-1', 'info', { kind: 'unrequested', location: { file: 'src/T1.ts', line: 1 }, suggested_fix: { action: 'remove', details: 'not requested' } })],
    });
  });

  it('shows the stages done, current and waiting, with times and the reason of every retry', () => {
    const status = Object.fromEntries(m.steps.map((s) => [s.id, s.status]));
    assert.equal(status.planning, 'done');
    assert.equal(status.executing, 'current');
    assert.equal(status.converge, 'waiting');
    assert.equal(m.steps.filter((s) => s.status === 'current').length, 1);
    const planning = m.steps.find((s) => s.id === 'planning')!;
    assert.deepEqual(
      planning.visits.map((v) => [v.status, v.reason]),
      [
        ['retry', 'plan.md missed REQ-003'],
        ['passed', undefined],
      ],
    );
    assert.equal(planning.enteredAt, at(3));
    assert.equal(planning.exitedAt, at(4));
    const executing = m.steps.find((s) => s.id === 'executing')!;
    assert.equal(executing.enteredAt, at(7));
    assert.equal(executing.exitedAt, undefined);
    assert.deepEqual(m.convergence, { round: 1, max: 3, status: 'needs_another_round' });
  });

  it('lists each precondition of the next transition with whether it holds', () => {
    const forward = m.next.find((t) => t.kind === 'forward')!;
    assert.equal(forward.to, 'converge');
    assert.equal(forward.ready, false);
    const stale = forward.preconditions.find((p) => p.label === 'no handoff is stale')!;
    assert.equal(stale.holds, false);
    assert.match(stale.reasons[0], /handoffs\/T1\.json is stale: src\/T1\.ts/);
    assert.equal(stale.path, `${SPEC}/handoffs/T1.json`);
    assert.ok(
      forward.preconditions.some((p) => p.holds),
      'the ones that hold are listed too',
    );
    assert.ok(forward.preconditions.every((p) => p.holds === (p.reasons.length === 0)));
    assert.deepEqual(m.actions, { advance: true, approve: true, markFailed: true, checkStage: ['task-state-closure', 'requirement-task-closure'], recoverTo: [], reapprove: [] });
  });

  it('lists tasks with state, retries, batch, and the breaker report of a tripped task', () => {
    assert.deepEqual(
      m.tasks.map((t) => [t.id, t.status, t.retries, t.batch?.index, t.dependsOn]),
      [
        ['T1', 'done', 0, 1, []],
        ['T2', 'failed', 4, 2, ['T1']],
        ['T3', 'pending', 0, 3, ['T2']],
      ],
    );
    // The id has its own column: the title is the heading without it.
    assert.equal(m.tasks[0].title, 'Login');
    assert.equal(m.tasks[1].title, 'Title of T2');
    assert.equal(m.tasks[0].path, `${SPEC}/tasks/T1.md`);
    assert.equal(m.tasks[0].breaker, undefined);
    assert.deepEqual(m.tasks[1].breaker, {
      reason: 'retries',
      summary: 'review failed 4 times (max_retries 3)',
      openedAt: at(8),
      blockingIssues: ['counter not persisted', 'no unlock test'],
      finishedTasks: ['T1'],
      dependents: ['T3'],
      choices: [
        { choice: 'A', label: 'Split this task and re-plan' },
        { choice: 'B', label: "I'll fix it by hand; tell me when to continue" },
        { choice: 'C', label: 'Skip this task (after confirming its impact)' },
      ],
    });
  });

  it('marks a handoff stale with the files that changed', () => {
    const t1 = m.handoffs.find((h) => h.name === 'T1')!;
    assert.deepEqual(t1, { name: 'T1', path: `${SPEC}/handoffs/T1.json`, status: 'done', summary: 'login done', taskId: 'T1', writtenAt: at(7), stale: true, changed: ['src/T1.ts'] });
    assert.equal(m.handoffs.find((h) => h.name === 'detail-expansion')!.stale, false);
  });

  it('gathers findings from the analysis, the convergence check and findings/*.json, most severe first', () => {
    assert.deepEqual(
      m.findings.map((f) => [f.severity, f.source, f.id]),
      [
        ['blocker', 'convergence', 'C-1'],
        ['warning', 'artifact-analysis', 'A-1'],
        ['info', 'omission-hunter', 'O-1'],
      ],
    );
    assert.deepEqual(m.findings[1].location, { path: `${SPEC}/plan.md`, line: 4 });
    assert.deepEqual(m.findings[2].location, { path: 'src/T1.ts', line: 1 });
    assert.equal(m.findings[2].suggestedFix, 'remove: not requested');
    assert.equal(m.findings[0].behaviorId, 'REQ-001-B02');
  });

  it('reports token usage per task, stage and role from the state file', () => {
    assert.deepEqual(m.tokenUsage, {
      total: { input: 300, output: 30 },
      tasks: [
        { id: 'T1', input: 100, output: 10 },
        { id: 'T2', input: 200, output: 20 },
      ],
      stages: [{ id: 'executing', input: 300, output: 30 }],
      roles: [{ id: 'implementer', input: 200, output: 20 }],
      updatedAt: at(8),
    });
  });

  it('is plain JSON', () => {
    assert.deepEqual(JSON.parse(JSON.stringify(m)), m);
  });
});

describe('buildDashboardModel for other states', () => {
  it('shows the stage a failed spec failed in, its reason, and where it may recover to', () => {
    const { model: m } = dashboard((r) => {
      plannedSpec(r);
      r.write(
        `${SPEC}/pipeline.state.json`,
        state('failed', {
          failure_reason: 'planning produced no tasks',
          stage_history: [
            passed('brainstorming', 0),
            passed('detail-expansion', 1),
            { stage: 'planning', entered_at: at(2), exited_at: at(3), status: 'failed', reason: 'planning produced no tasks' },
          ],
        }),
      );
    });
    assert.equal(m.stage, 'failed');
    assert.equal(m.failureReason, 'planning produced no tasks');
    assert.equal(m.steps.find((s) => s.id === 'planning')!.status, 'failed');
    assert.equal(m.steps.find((s) => s.id === 'brainstorming')!.status, 'done');
    assert.equal(m.steps.find((s) => s.id === 'analyze-artifacts')!.status, 'waiting');
    assert.ok(m.next.length > 0 && m.next.every((t) => t.kind === 'recover'));
    assert.equal(m.actions.advance, false);
    assert.equal(m.actions.markFailed, false);
    assert.ok(m.actions.recoverTo.length > 0);
  });

  it('infers the stage without a state file, and has no token section', () => {
    const { model: m } = dashboard((r) => plannedSpec(r));
    assert.equal(m.stageSource, 'inferred');
    assert.equal(m.tokenUsage, undefined);
    assert.equal(m.steps.filter((s) => s.status === 'current').length, 1);
  });

  it('keeps the report of a breaker the user has answered, with the choice, and drops a closed one', () => {
    const breaker = { reason: { kind: 'timeout', role: 'implementer', minutes: 30 }, opened_at: at(1), last_issues: ['the implementer timed out'] };
    const { model: m } = dashboard((r) => {
      plannedSpec(r);
      r.write(`${SPEC}/tasks/T2.md`, task('T2'));
      r.write(`${SPEC}/task-states/T1.state.json`, { task_id: 'T1', status: 'failed', retry_count: 0, metadata: { breaker: { ...breaker, choice: 'A', chosen_at: at(2) } } });
      // Choice B closed the breaker and the task went back to review.
      r.write(`${SPEC}/task-states/T2.state.json`, { task_id: 'T2', status: 'reviewing', retry_count: 0, metadata: { breaker } });
    });
    assert.equal(m.tasks[0].breaker?.reason, 'timeout');
    assert.match(m.tasks[0].breaker?.summary ?? '', /timed out after 30 minutes/);
    assert.deepEqual(m.tasks[0].breaker?.chosen, { choice: 'A', at: at(2) });
    assert.equal(m.tasks[1].breaker, undefined);
  });

  it('has no next step and no stage when the state file is corrupt', () => {
    const { model: m } = dashboard((r) => {
      plannedSpec(r);
      r.write(`${SPEC}/pipeline.state.json`, '{ not json');
    });
    assert.equal(m.stage, null);
    assert.equal(m.stageSource, 'unknown');
    assert.deepEqual(m.next, []);
    assert.ok(m.problems.errors > 0);
    assert.ok(m.steps.every((s) => s.status === 'waiting'));
  });
});

describe('buildDashboardModel: who holds the run lock', () => {
  it('names another live process holding .loom-run.lock, but not this one (its own pipeline run, its Run Tasks)', async () => {
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    await new Promise((resolve) => child.once('spawn', resolve));
    try {
      const theirs = dashboard((r) => {
        plannedSpec(r);
        r.write(`${SPEC}/.loom-run.lock`, `${child.pid}\n2026-12-04T21:00:00.000Z\nrun-0123456789abcdef`);
      });
      assert.equal(theirs.model.lockedBy, child.pid);
      const ours = dashboard((r) => {
        plannedSpec(r);
        r.write(`${SPEC}/.loom-run.lock`, `${process.pid}\n2026-12-04T21:00:00.000Z\nrun-0123456789abcdef`);
      });
      assert.equal(ours.model.lockedBy, undefined);
    } finally {
      child.kill();
    }
  });
});
