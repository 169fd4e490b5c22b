import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { ModelUnavailableError, type ChatModel } from '../../../src/core/executing/dispatch/chatModel';
import type { NeedsConfirmation } from '../../../src/core/port/answer';
import { request } from '../../../src/core/port/request';
import { runPipeline, type RunPorts, type TasksOutcome } from '../../../src/core/pipelineRun/pipelineRun';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import type { SpecPipeline } from '../../../src/core/repository/specPipeline';
import { block, freshSpec, GOOD, QueueModel } from '../authoring/authoringFixture';
import { BROKEN_TEST, GREETING, greetingAtVerification } from '../verification/greetingRepo';

// Loom: Run Pipeline (issue 34, item 4): the run drives each stage through the spec's actor and
// stops where a person decides. The actor is real (a temporary repository at verification, the
// sample's workflow); the model is scripted; the runners that need VS Code are fake ports.

delete process.env.NODE_TEST_CONTEXT;

const REVIEW_REQUEST = '# Code review request: greeting\n\n## Summary\n\nGreets a person by name (REQ-001).\n\n## Verification\n\nverify-report.md: PASS.\n';

function ports(spec: SpecPipeline, over: Partial<RunPorts> & { model?: () => Promise<ChatModel> } = {}): RunPorts & { asked: NeedsConfirmation[]; synced: number } {
  const asked: NeedsConfirmation[] = [];
  const p = {
    mode: 'autopilot' as const,
    signal: new AbortController().signal,
    model: async () => new QueueModel([block({ path: 'review-request.md', content: REVIEW_REQUEST })]),
    reviewDrafts: async () => true,
    confirm: async (q: NeedsConfirmation) => {
      asked.push(q);
      return true;
    },
    runTasks: async (): Promise<TasksOutcome> => ({ kind: 'refused', message: 'no tasks run in these tests' }),
    createWorktree: () => request(spec, { type: 'createWorktree', location: '' }),
    verify: () => request(spec, { type: 'verify', verify: { trusted: true, writer: 'unit test' } }),
    sync: () => {
      p.synced++;
      return request(spec, { type: 'sync' });
    },
    asked,
    synced: 0,
    ...over,
  };
  return p;
}

const specOf = (root: string) => new LoomRepository(root).get(GREETING)!;

test('Autopilot from verification: verifies, drafts the review request, and stops at the review gate, saying why', async () => {
  const r = greetingAtVerification();
  try {
    const spec = specOf(r.root);
    const stop = await runPipeline(spec, ports(spec));
    assert.equal(stop.reason, 'review-gate', stop.message);
    assert.equal(stop.stage, 'review-gate');
    assert.match(stop.message, /review-feedback\.md/);
    assert.deepEqual(
      stop.stages.map((s) => [s.stage, s.work]),
      [
        ['verification', 'verify'],
        ['code-review-request', 'draft'],
        ['review-gate', 'reviewGate'],
      ],
    );
    assert.ok(stop.stages[0].wrote.includes('verify-report.md'));
    assert.deepEqual(stop.stages[1].wrote, ['review-request.md', 'handoffs/code-review-request.json']);
    assert.ok(stop.stages[1].tokens > 0);
    assert.equal(r.read(`${GREETING}/review-request.md`), REVIEW_REQUEST);
    assert.equal(r.json(`${GREETING}/pipeline.state.json`).current_stage, 'review-gate');
    // Each stage keeps its transcript.
    assert.ok(stop.stages[1].transcript.some((l) => /Moved code-review-request → review-gate/.test(l)));
  } finally {
    r.dispose();
  }
});

test('a failing test stops the run at verification with its fix instructions; the spec does not move', async () => {
  const r = greetingAtVerification({ test: BROKEN_TEST });
  try {
    const spec = specOf(r.root);
    const stop = await runPipeline(spec, ports(spec));
    assert.equal(stop.reason, 'verification-failed');
    assert.match(stop.message, /Verification failed \(1 fix items\): `npm test` exits with 1/);
    assert.equal(r.json(`${GREETING}/pipeline.state.json`).current_stage, 'verification');
    assert.equal(existsSync(r.path(`${GREETING}/handoffs/verification.json`)), false);
  } finally {
    r.dispose();
  }
});

test('Supervised: the drafts wait for the person; declined, nothing is written and the spec stays', async () => {
  const r = greetingAtVerification();
  try {
    const spec = specOf(r.root);
    const shown: string[][] = [];
    const stop = await runPipeline(
      spec,
      ports(spec, {
        mode: 'supervised',
        reviewDrafts: async (_stage, drafts) => {
          shown.push(drafts.map((d) => d.path));
          return false;
        },
      }),
    );
    assert.equal(stop.reason, 'drafts-declined');
    assert.equal(stop.stage, 'code-review-request');
    assert.deepEqual(shown, [['review-request.md']]);
    assert.equal(existsSync(r.path(`${GREETING}/review-request.md`)), false);
    assert.equal(r.json(`${GREETING}/pipeline.state.json`).current_stage, 'code-review-request');
  } finally {
    r.dispose();
  }
});

test('a model that is unavailable or refuses stops the run at its stage with the reason', async () => {
  const r = greetingAtVerification();
  try {
    const spec = specOf(r.root);
    const none = await runPipeline(
      spec,
      ports(spec, {
        model: async () => {
          throw new ModelUnavailableError('no language model is available', 'implementer', 'standard');
        },
      }),
    );
    assert.equal(none.reason, 'model-unavailable');
    assert.equal(none.stage, 'code-review-request');
    const talk = await runPipeline(spec, ports(spec, { model: async () => new QueueModel(['I cannot help with that.']) }));
    assert.equal(talk.reason, 'model-refused');
  } finally {
    r.dispose();
  }
});

test('a resumed run does not do a stage again whose handoff is fresh: no model is asked, the spec moves on', async () => {
  const r = greetingAtVerification();
  try {
    const spec = specOf(r.root);
    const first = await runPipeline(spec, ports(spec));
    assert.equal(first.reason, 'review-gate');
    // As after a reload: the spec back at code-review-request with its files and handoff fresh.
    r.write(`${GREETING}/pipeline.state.json`, { ...(r.json(`${GREETING}/pipeline.state.json`) as object), current_stage: 'code-review-request' });
    let asked = 0;
    const again = await runPipeline(
      specOf(r.root),
      ports(spec, {
        model: async () => {
          asked++;
          return new QueueModel([]);
        },
      }),
    );
    assert.equal(again.reason, 'review-gate', again.message);
    assert.equal(asked, 0);
    assert.equal(again.stages[0].work, 'draft');
    assert.equal(again.stages[0].rounds, 0);
  } finally {
    r.dispose();
  }
});

test('Stop: an aborted run stops before the next stage, and nothing is written', async () => {
  const r = greetingAtVerification();
  try {
    const spec = specOf(r.root);
    const controller = new AbortController();
    controller.abort();
    const stop = await runPipeline(spec, ports(spec, { signal: controller.signal }));
    assert.equal(stop.reason, 'stopped');
    assert.equal(existsSync(r.path(`${GREETING}/verify-report.md`)), false);
  } finally {
    r.dispose();
  }
});

test('the run never passes a human-approval gate by itself, and stops at the review response without the answerReview intent', async () => {
  const r = greetingAtVerification();
  try {
    r.write(`${GREETING}/review-request.md`, REVIEW_REQUEST);
    r.write(`${GREETING}/review-feedback.md`, '# Review feedback\n\n## BLOCKER\n\n- greet() must reject an empty name\n\nverdict: FAIL\n');
    r.write(`${GREETING}/pipeline.state.json`, { ...(r.json(`${GREETING}/pipeline.state.json`) as object), current_stage: 'review-gate' });
    const spec = specOf(r.root);
    const gate = await runPipeline(spec, ports(spec));
    assert.equal(gate.reason, 'review-gate');
    assert.equal(r.json(`${GREETING}/pipeline.state.json`).current_stage, 'review-gate');
    r.write(`${GREETING}/pipeline.state.json`, { ...(r.json(`${GREETING}/pipeline.state.json`) as object), current_stage: 'code-review-response' });
    const respond = await runPipeline(specOf(r.root), ports(spec));
    assert.equal(respond.reason, 'review-response');
    assert.match(respond.message, /@loom \/respond/);
  } finally {
    r.dispose();
  }
});

test('from brainstorming: the drafts pass loom’s checks and are written, then the run stops at the human-approval gate', async () => {
  const f = freshSpec();
  try {
    // The sample's workflow: brainstorming is a human-approval gate there.
    mkdirSync(join(f.root, '.loom'), { recursive: true });
    copyFileSync(join(__dirname, '../../../sample/.loom/workflow.yaml'), join(f.root, '.loom/workflow.yaml'));
    const spec = new LoomRepository(f.root).get(f.specDir)!;
    const model = new QueueModel([GOOD.brainstorm, GOOD.expand, GOOD.plan].map((drafts) => `Here are the files.\n\n${drafts.map(block).join('')}`));
    const stop = await runPipeline(spec, ports(spec, { model: async () => model }));
    assert.equal(stop.reason, 'approval-gate', stop.message);
    assert.equal(stop.stage, 'brainstorming');
    assert.match(stop.message, /human-approval gate: approve it to move on to detail-expansion/);
    assert.equal(spec.snapshot.state?.current_stage, 'brainstorming');
    assert.deepEqual(stop.stages[0].wrote.slice(0, 2), ['spec.md', 'requirements.json']);
    assert.equal(model.requests.length, 1);
  } finally {
    f.cleanup();
  }
});

test('on through the worktree to executing: a tripped breaker stops the run there, with the run’s message', async () => {
  const f = freshSpec();
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: f.root, stdio: 'pipe' });
    git('init', '-q', '-b', 'main');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '--allow-empty', '-m', 'start');
    const spec = new LoomRepository(f.root).get(f.specDir)!;
    const model = new QueueModel([GOOD.brainstorm, GOOD.expand, GOOD.plan].map((drafts) => `Files.\n\n${drafts.map(block).join('')}`));
    let tasksRan = 0;
    const stop = await runPipeline(
      spec,
      ports(spec, {
        model: async () => model,
        runTasks: async () => {
          tasksRan++;
          return { kind: 'ran', outcome: 'replan', message: 'T1 waits to be split and re-planned (choice A)', finished: [] };
        },
      }),
    );
    assert.equal(stop.reason, 'breaker', stop.message);
    assert.equal(stop.stage, 'executing');
    assert.equal(tasksRan, 1);
    assert.deepEqual(
      stop.stages.map((s) => s.work),
      ['draft', 'draft', 'draft', 'check', 'move', 'worktree', 'tasks'],
    );
    // The worktree was made by the actor and recorded.
    const worktree = spec.snapshot.state?.metadata?.worktree_path;
    assert.equal(typeof worktree, 'string');
    assert.ok(existsSync(worktree as string));
  } finally {
    f.cleanup();
  }
});

test('an approval the stage’s own files made stale stops the run for the person; the run never renews it', async () => {
  const f = freshSpec();
  try {
    mkdirSync(join(f.root, '.loom'), { recursive: true });
    copyFileSync(join(__dirname, '../../../sample/.loom/workflow.yaml'), join(f.root, '.loom/workflow.yaml'));
    const spec = new LoomRepository(f.root).get(f.specDir)!;
    const model = new QueueModel([GOOD.brainstorm, GOOD.expand].map((drafts) => `Files.\n\n${drafts.map(block).join('')}`));
    const gate = await runPipeline(spec, ports(spec, { model: async () => model }));
    assert.equal(gate.reason, 'approval-gate');
    const approved = await request(spec, { type: 'approve', compressionConfirmed: true }, { confirm: true });
    assert.equal(approved.kind, 'changed');
    const stale = await runPipeline(spec, ports(spec, { model: async () => model }));
    assert.equal(stale.reason, 'stale-approval', stale.message);
    assert.equal(stale.stage, 'detail-expansion');
    assert.match(stale.message, /approval of brainstorming is stale/);
    assert.equal(spec.snapshot.state?.current_stage, 'detail-expansion');
    assert.equal(model.requests.length, 2, 'no correction round is spent on a stale approval');
  } finally {
    f.cleanup();
  }
});

// Issue 44 defect 2: the files a stage may not write are refused by name, never written, and
// never keep a correct draft from passing.
test('drafts of files the stage may not write are left out by name; the stage’s own file is written and the run goes on', async () => {
  const r = greetingAtVerification();
  try {
    const spec = specOf(r.root);
    const reply = `${block({ path: 'review-request.md', content: REVIEW_REQUEST })}${block({ path: 'review-feedback.md', content: '# Feedback\n\nPASS\n' })}${block({ path: 'pipeline.state.json', content: '{"current_stage":"synced"}\n' })}`;
    const stop = await runPipeline(spec, ports(spec, { model: async () => new QueueModel([reply, block({ path: 'review-request.md', content: REVIEW_REQUEST })]) }));
    assert.equal(stop.reason, 'review-gate', stop.message);
    assert.equal(r.read(`${GREETING}/review-request.md`), REVIEW_REQUEST);
    assert.equal(existsSync(join(r.root, GREETING, 'review-feedback.md')), false);
    assert.equal(r.json(`${GREETING}/pipeline.state.json`).current_stage, 'review-gate');
    assert.ok(stop.stages[1].transcript.some((l) => /Left out \(never written\): review-feedback\.md, pipeline\.state\.json/.test(l)));
  } finally {
    r.dispose();
  }
});

test('a model that only ever drafts files the stage may not write stops the run naming the file and why', async () => {
  const r = greetingAtVerification();
  try {
    const spec = specOf(r.root);
    const wrong = block({ path: 'review-feedback.md', content: '# Feedback\n\nPASS\n' });
    const stop = await runPipeline(spec, ports(spec, { model: async () => new QueueModel([wrong, wrong, wrong, wrong, wrong, wrong, wrong, wrong, wrong]) }));
    assert.equal(stop.reason, 'check-failed', stop.message);
    assert.equal(stop.stage, 'code-review-request');
    assert.match(stop.message, /review-feedback\.md is not a file \/review may write \(only review-request\.md\)/);
    assert.equal(existsSync(join(r.root, GREETING, 'review-feedback.md')), false);
  } finally {
    r.dispose();
  }
});
