import assert from 'node:assert/strict';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { request } from '../../../src/core/port/request';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { plannedSpec, SPEC, state, TempRepo } from '../../helpers/tempRepo';

const NOW = '2026-11-29T10:00:00.000Z';

/** A spec at brainstorming with its outputs there: only the person's word is missing to leave it. */
function atBrainstorming(extra: (r: TempRepo) => void = () => undefined) {
  const r = new TempRepo();
  r.write(`${SPEC}/pipeline.state.json`, state('brainstorming'));
  r.write(`${SPEC}/spec.md`, '# Login\n\nUsers log in.\n');
  r.write(`${SPEC}/requirements.json`, { requirements: [] });
  extra(r);
  return r;
}

const spec = (r: TempRepo, rules?: { blockOnOpenThreads: boolean }) => new LoomRepository(r.root, rules ? { rules } : {}).load().get(SPEC)!;

const openThread = (file = 'spec.md') => ({
  version: 1,
  threads: [
    {
      id: 't1',
      file,
      line: 1,
      end_line: 1,
      quote: '# Login',
      status: 'open',
      created_at: NOW,
      comments: [{ id: 'c1', author: 'ana', body: 'Which login providers?', created_at: NOW }],
    },
  ],
});

test('the actor asks before leaving an interactive stage: one question, worded once, naming the step and what it produced', async () => {
  const r = atBrainstorming();
  try {
    const s = spec(r);
    const before = r.read(`${SPEC}/pipeline.state.json`);
    const asked = await request(s, { type: 'advance' }, { now: NOW });
    assert.equal(asked.kind, 'needs-confirmation');
    if (asked.kind !== 'needs-confirmation') return;
    assert.deepEqual(asked.step, { from: 'brainstorming', to: 'detail-expansion' });
    assert.equal(asked.question.title, 'Leave brainstorming of login and move it to detail-expansion?');
    assert.ok(asked.question.lines.includes(`${SPEC}: brainstorming → detail-expansion`), asked.question.lines.join('\n'));
    assert.ok(asked.question.lines.some((l) => /^Outputs of brainstorming: spec\.md ✓, requirements\.json ✓/.test(l)));
    assert.ok(asked.question.lines.some((l) => l.startsWith('Next: detail-expansion')));
    assert.ok(asked.question.lines.includes('• brainstorming is left only once you confirm it is done'));
    assert.equal(asked.agentMayReport, false, 'leaving a stage is the person’s word, never an agent’s report');
    assert.equal(r.read(`${SPEC}/pipeline.state.json`), before, 'asking writes nothing');

    const moved = await request(s, { type: 'advance' }, { confirm: asked.step, now: NOW });
    assert.ok(moved.kind === 'changed' && moved.from === 'brainstorming' && moved.to === 'detail-expansion', JSON.stringify(moved));
    assert.equal(r.json(`${SPEC}/pipeline.state.json`).stage_history.at(-1).approval, 'user_confirmed');
  } finally {
    r.dispose();
  }
});

test('the word counts for the step the person saw: once the spec moved, the actor asks again and writes nothing', async () => {
  const r = atBrainstorming();
  try {
    const s = spec(r);
    const stale = { from: 'planning', to: 'analyze-artifacts' };
    const again = await request(s, { type: 'advance' }, { confirm: stale, now: NOW });
    assert.equal(again.kind, 'needs-confirmation');
    assert.equal(r.json(`${SPEC}/pipeline.state.json`).current_stage, 'brainstorming');
    // An agent's report is no person's word for leaving a stage.
    const reported = await request(s, { type: 'advance' }, { confirm: { from: 'brainstorming', to: 'detail-expansion', by: 'agent' }, now: NOW });
    assert.equal(reported.kind, 'needs-confirmation');
    assert.equal(r.json(`${SPEC}/pipeline.state.json`).current_stage, 'brainstorming');
  } finally {
    r.dispose();
  }
});

test('preview says what the actor would answer through a pure transition: nothing is written, not even for a move that would be taken', () => {
  const r = new TempRepo();
  try {
    r.write(`${SPEC}/pipeline.state.json`, { ...state('failed'), failure_reason: 'scope changed' });
    const s = spec(r);
    const before = r.read(`${SPEC}/pipeline.state.json`);
    assert.deepEqual(s.preview({ type: 'recover', to: 'brainstorming' }), { kind: 'would-change' });
    assert.equal(s.preview({ type: 'advance' }).kind, 'refused');
    assert.equal(r.read(`${SPEC}/pipeline.state.json`), before);
    assert.equal(existsSync(r.path(`${SPEC}/progress.md`)), false);
  } finally {
    r.dispose();
  }
});

test("the team's rule on open threads is the actor's: refused with the rule and the threads named, on any surface's request", async () => {
  const r = atBrainstorming((r) => r.write(`${SPEC}/review-comments.json`, openThread()));
  try {
    const refused = await request(spec(r, { blockOnOpenThreads: true }), { type: 'advance' }, { confirm: true, now: NOW });
    assert.equal(refused.kind, 'refused');
    if (refused.kind !== 'refused') return;
    assert.equal(refused.code, 'open-threads');
    assert.match(refused.message, /cannot leave brainstorming: 1 comment thread on its outputs is open \(loom\.review\.blockOnOpenThreads\)/);
    assert.ok(refused.reasons.includes('spec.md:1: Which login providers?'), refused.reasons.join('\n'));
    assert.ok(refused.remedies.some((x) => x.kind === 'refine-threads'));
    assert.equal(r.json(`${SPEC}/pipeline.state.json`).current_stage, 'brainstorming');

    // Without the rule the thread is a warning in the question, not a refusal.
    const asked = await request(spec(r, { blockOnOpenThreads: false }), { type: 'advance' }, { now: NOW });
    assert.ok(asked.kind === 'needs-confirmation' && asked.question.lines.includes('⚠ 1 comment thread on its outputs is still open: spec.md:1.'), JSON.stringify(asked));

    // The rule read from the repository's .vscode/settings.json, as the CLI and the MCP server read it.
    r.write('.vscode/settings.json', '{ "loom.review.blockOnOpenThreads": true }');
    const fromFile = await request(new LoomRepository(r.root).load().get(SPEC)!, { type: 'advance' }, { confirm: true, now: NOW });
    assert.ok(fromFile.kind === 'refused' && fromFile.code === 'open-threads');

    // A resolved thread no longer blocks.
    r.write(`${SPEC}/review-comments.json`, { ...openThread(), threads: [{ ...openThread().threads[0], status: 'resolved' }] });
    const moved = await request(new LoomRepository(r.root).load().get(SPEC)!, { type: 'advance' }, { confirm: true, now: NOW });
    assert.equal(moved.kind, 'changed');
  } finally {
    r.dispose();
  }
});

test('a lock held by another process is a refusal that names it; one held for a task run says the tasks are running', async () => {
  const r = atBrainstorming();
  try {
    writeFileSync(join(r.path(SPEC), '.loom-run.lock'), `${process.ppid}\n2026-11-29T09:00:00.000Z\nabc`);
    const s = new LoomRepository(r.root).load().get(SPEC)!;
    const locked = await request(s, { type: 'fail', reason: 'x' }, { now: NOW });
    assert.ok(locked.kind === 'refused' && locked.code === 'spec-locked' && locked.message.includes(`pid ${process.ppid}`), JSON.stringify(locked));
    writeFileSync(join(r.path(SPEC), '.loom-run.lock'), `${process.ppid}\n2026-11-29T09:00:00.000Z\nrun-abc`);
    const running = await request(s, { type: 'fail', reason: 'x' }, { now: NOW });
    assert.ok(running.kind === 'refused' && running.code === 'tasks-running', JSON.stringify(running));
    assert.equal(r.json(`${SPEC}/pipeline.state.json`).current_stage, 'brainstorming');
  } finally {
    r.dispose();
  }
});

test("task states follow loom's updateTask whoever asks: a retry counts only when a state existed, the blocker is kept unless given", async () => {
  const r = new TempRepo();
  try {
    r.write(`${SPEC}/pipeline.state.json`, state('executing'));
    r.write(`${SPEC}/tasks/T1.md`, '---\nid: T1\nowns: [src/a.ts]\n---\n# T1\n');
    const s = spec(r);
    const first = await request(s, { type: 'setTaskState', task: 'T1', status: 'failed' }, { now: NOW });
    assert.ok(first.kind === 'changed' && first.task.retry_count === 0);
    await request(s, { type: 'setTaskState', task: 'T1', status: 'blocked', blocker: 'db down' }, { now: NOW });
    const third = await request(s, { type: 'setTaskState', task: 'T1', status: 'failed' }, { now: NOW });
    assert.ok(third.kind === 'changed' && third.task.retry_count === 1 && third.task.blocker === 'db down', JSON.stringify(third));
    const unknown = await request(s, { type: 'setTaskState', task: 'T9', status: 'done' }, { now: NOW });
    assert.ok(unknown.kind === 'refused' && unknown.code === 'unknown-task' && /has no task T9; nothing was written/.test(unknown.message));
    assert.equal(existsSync(r.path(`${SPEC}/task-states/T9.state.json`)), false);
  } finally {
    r.dispose();
  }
});

test('every handoff carries task_id, the stage or task it is for, as loom 2.4 and loom 3 write it', async () => {
  const r = new TempRepo();
  try {
    r.write(`${SPEC}/pipeline.state.json`, state('planning'));
    r.write(`${SPEC}/tasks/T1.md`, '---\nid: T1\nowns: [src/a.ts]\n---\n# T1\n');
    const s = spec(r);
    const stage = await request(s, { type: 'writeHandoff', handoff: { stage: 'planning', summary: 'planned' } }, { now: NOW });
    assert.ok(stage.kind === 'changed');
    assert.deepEqual([r.json(`${SPEC}/handoffs/planning.json`).stage, r.json(`${SPEC}/handoffs/planning.json`).task_id], ['planning', 'planning']);
    await request(s, { type: 'writeHandoff', handoff: { task: 'T1' } }, { now: NOW });
    assert.equal(r.json(`${SPEC}/handoffs/T1.json`).task_id, 'T1');
    const other = await request(s, { type: 'writeHandoff', handoff: { stage: 'converge', currentStageOnly: true } }, { now: NOW });
    assert.ok(other.kind === 'refused' && other.code === 'stage-mismatch');
  } finally {
    r.dispose();
  }
});

test('changing the steps ahead needs a person; an agent’s report will do unless a stage a person must pass is left out', async () => {
  const r = new TempRepo();
  try {
    r.write(`${SPEC}/pipeline.state.json`, state('planning'));
    const s = spec(r);
    const step = (id: string) => ({ id, requires: [], outputs: [], validators: [], approval_requires: [] });
    // Leaving out review-gate, a stage a person must pass: the agent's report is not enough.
    const short = ['analyze-artifacts', 'approved', 'git-worktree', 'executing'].map(step);
    const asked = await request(s, { type: 'adjustSteps', remaining: short }, { now: NOW });
    assert.ok(asked.kind === 'needs-confirmation' && !asked.agentMayReport && asked.question.lines.some((l) => l.startsWith('Left out:') && l.includes('review-gate')), JSON.stringify(asked));
    const reported = await request(s, { type: 'adjustSteps', remaining: short }, { confirm: { ...asked.step, by: 'agent' }, now: NOW });
    assert.equal(reported.kind, 'needs-confirmation');
    assert.equal(r.json(`${SPEC}/pipeline.state.json`).dynamic_steps, undefined, 'nothing written');
    // Every stage a person passes kept: the agent's report of the person's agreement will do.
    const all = ['analyze-artifacts', 'approved', 'git-worktree', 'executing', 'converge', 'verification', 'code-review-request', 'review-gate', 'code-review-response', 'synced'].map(step);
    const kept = await request(s, { type: 'adjustSteps', remaining: all }, { now: NOW });
    assert.ok(kept.kind === 'needs-confirmation' && kept.agentMayReport);
    assert.equal((await request(s, { type: 'adjustSteps', remaining: all }, { confirm: { ...kept.step, by: 'agent' }, now: NOW })).kind, 'changed');
    assert.equal(r.json(`${SPEC}/pipeline.state.json`).dynamic_steps.length, 11);
  } finally {
    r.dispose();
  }
});

test('a spec starts on chosen steps once, with a word; a second start is refused and leaves the state as it is', async () => {
  const r = new TempRepo();
  try {
    r.write(`${SPEC}/spec.md`, '# Typo fix\n');
    const s = spec(r);
    const steps = [{ id: 'executing' }, { id: 'verification' }];
    const asked = await request(s, { type: 'startPipeline', steps, why: ['low risk'] }, { now: NOW });
    assert.ok(asked.kind === 'needs-confirmation' && asked.question.lines.includes('Steps: executing → verification.') && asked.question.lines.includes('low risk'));
    const started = await request(s, { type: 'startPipeline', steps }, { confirm: { ...asked.step, by: 'agent' }, now: NOW });
    assert.ok(started.kind === 'changed' && started.to === 'executing', JSON.stringify(started));
    const written = r.read(`${SPEC}/pipeline.state.json`);
    const again = await request(new LoomRepository(r.root).load().get(SPEC)!, { type: 'startPipeline', steps }, { confirm: true, now: NOW });
    assert.ok(again.kind === 'refused' && again.code === 'state-exists');
    assert.equal(r.read(`${SPEC}/pipeline.state.json`), written);
  } finally {
    r.dispose();
  }
});

/** Another live process holding the spec's run lock, for the time of `work`. */
async function lockedByAnother(r: TempRepo, work: () => Promise<void>) {
  const { spawn } = await import('node:child_process');
  const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
  try {
    r.write(`${SPEC}/.loom-run.lock`, String(sleeper.pid));
    await work();
  } finally {
    await new Promise((done) => {
      sleeper.once('exit', done);
      sleeper.kill();
    });
  }
}

test('every intent turns a run lock held elsewhere into a refusal that names the holder, Create Worktree too', async () => {
  const r = new TempRepo();
  r.write(`${SPEC}/pipeline.state.json`, state('git-worktree'));
  await lockedByAnother(r, async () => {
    const s = spec(r);
    for (const intent of [{ type: 'createWorktree' as const }, { type: 'fail' as const, reason: 'x' }, { type: 'rewind' as const, task: 'T1' }]) {
      // Before the funnel, Create Worktree threw the lock's error where the others answered.
      const answer = await request(s, intent, { now: NOW });
      assert.equal(answer.kind, 'refused', intent.type);
      assert.equal(answer.kind === 'refused' && answer.code, 'spec-locked', intent.type);
      assert.ok(answer.kind === 'refused' && answer.holder?.pid, intent.type);
    }
  });
  assert.equal(r.json(`${SPEC}/pipeline.state.json`).current_stage, 'git-worktree');
  r.dispose();
});

test('the views hear of a request once, when it is answered, a job refused too', async () => {
  const r = atBrainstorming();
  const s = spec(r);
  let heard = 0;
  s.onDidChange(() => heard++);
  const answer = await request(s, { type: 'advance' }, { confirm: true, now: NOW });
  assert.equal(answer.kind, 'changed');
  assert.equal(heard, 1);
  assert.equal(s.stage, 'detail-expansion');
  // Verify is a job: refused here (not the stage that verifies), it was heard twice before the funnel.
  heard = 0;
  const refused = await request(s, { type: 'verify', verify: { trusted: true, writer: 'test' } }, { now: NOW });
  assert.equal(refused.kind, 'refused');
  assert.equal(heard, 1);
  r.dispose();
});

test("the validators' reports are the actor's effects: written under the request's lock with its now, at a failed stage too; a wrong round or a lock held elsewhere writes nothing", async () => {
  const r = atBrainstorming(plannedSpec);
  try {
    const s = spec(r);
    let heard = 0;
    s.onDidChange(() => heard++);
    const analyzed = await request(s, { type: 'analyzeArtifacts' }, { now: NOW });
    assert.ok(analyzed.kind === 'changed' && analyzed.written, JSON.stringify(analyzed));
    assert.equal(r.json(`${SPEC}/artifact-analysis.json`).created_at, NOW);
    assert.equal(heard, 1, 'the views hear of the request once');

    // loom's converge counts rounds from pipeline.state.json: round 3 is not the next one.
    const wrong = await request(s, { type: 'converge', round: 3 }, { now: NOW });
    assert.ok(wrong.kind === 'refused' && wrong.code === 'wrong-round', JSON.stringify(wrong));
    assert.equal(existsSync(r.path(`${SPEC}/convergence-report.json`)), false);

    // Another live process holds the spec: the hunt is refused for it, and nothing is written.
    writeFileSync(join(r.path(SPEC), '.loom-run.lock'), `${process.ppid}\n2026-11-29T09:00:00.000Z\nabc`);
    const locked = await request(s, { type: 'huntOmissions' }, { now: NOW });
    assert.ok(locked.kind === 'refused' && locked.code === 'spec-locked', JSON.stringify(locked));
    assert.equal(existsSync(r.path(`${SPEC}/findings/omission-hunter.json`)), false);

    // loom writes them whenever asked, whatever the stage: a failed spec too.
    rmSync(join(r.path(SPEC), '.loom-run.lock'));
    r.write(`${SPEC}/pipeline.state.json`, state('failed'));
    const hunted = await request(s, { type: 'huntOmissions' }, { now: NOW });
    assert.ok(hunted.kind === 'changed' && hunted.report.created_at === NOW, JSON.stringify(hunted));
  } finally {
    r.dispose();
  }
});
