import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, test } from 'node:test';
import { ModelRequestError, ModelUnavailableError } from '../../../src/core/executing/dispatch/chatModel';
import { MemoryTranscriptStore } from '../../../src/core/executing/transcripts/transcriptStore';
import { request } from '../../../src/core/port/request';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { FakePrompts } from './helpers/fakes';
import { SPEC, harness, implementerDone, PASS, REPORT_PASS, type Harness } from './helpers/executingFixture';

/**
 * Issue #44, defect 4: nothing a person, a reviewer or loom wrote in a task's state is lost by a
 * run that could not start or stopped before the task's step did its work; the model is checked
 * before the person is asked to send anything; and a state loom wrote after a failed review goes
 * on in fix mode with the reviewer's items, as loom's loop does.
 */
const made: Harness[] = [];
after(() => made.forEach((h) => h.repo.dispose()));
const track = (h: Harness) => (made.push(h), h);

/** T1 as loom writes it after its reviewer's FAIL (no Loom run record), its fix items in the blocker. */
const LOOM_FAIL = `${JSON.stringify(
  {
    task_id: 'T1',
    spec_dir: SPEC,
    status: 'reviewing',
    retry_count: 1,
    agent_session_id: 'sess-e6c2f4',
    created_at: '2026-11-25T09:10:00.000Z',
    updated_at: '2026-11-25T09:40:00.000Z',
    last_reviewer_result: 'FAIL',
    blocker:
      '## Fix instructions\n\n### Fix item 1\n- Problem: months above 12 are accepted\n- File: src/due.js\n- Location: parseDueDate\n- Severity: BLOCKER\n- Direction: reject months outside 1-12\n\n### Fix item 2\n- Problem: REQ-001-B02 has no test\n- File: tests/due.test.js\n- Severity: MAJOR\n- Direction: add a test named after REQ-001-B02',
  },
  null,
  2,
)}\n`;

/** Every file of the spec directory with its bytes, to compare before and after. */
function filesOf(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.set(relative(dir, p), readFileSync(p, 'latin1'));
    }
  };
  walk(dir);
  return out;
}

function loomFail(h: Harness): Buffer {
  h.repo.write(`${SPEC}/task-states/T1.state.json`, LOOM_FAIL);
  return readFileSync(h.repo.path(`${SPEC}/task-states/T1.state.json`));
}

/** Run Tasks as a surface sends it before the person's word: the actor's question, or its refusal. */
function askToRun(h: Harness) {
  const spec = new LoomRepository(h.repo.root).load().get(SPEC)!;
  return request(spec, {
    type: 'runTasks',
    run: {
      worktree: h.repo.root,
      models: h.models,
      prompts: new FakePrompts(),
      transcripts: new MemoryTranscriptStore(),
      signal: new AbortController().signal,
      settings: { trusted: true, testCommand: 'npm test' },
    },
  });
}

test("a state loom wrote after a failed review goes on in fix mode with the reviewer's items, its retry count kept", async () => {
  const h = track(harness());
  loomFail(h);
  h.models.script('implementer', ...implementerDone('T1'), ...implementerDone('T2'));
  h.models.script('reviewer', PASS, PASS);
  h.models.script('test-reporter', REPORT_PASS);
  const result = await h.loop.run(new AbortController().signal);
  assert.equal(result.outcome, 'completed', result.message);
  assert.equal(h.models.requests[0].role, 'implementer', 'the implementer fixes first; the failed review is not asked again');
  const [first] = h.models.promptsOf('implementer');
  assert.match(first, /^Fix mode for task T1/);
  assert.match(first, /months above 12 are accepted/);
  assert.match(first, /REQ-001-B02 has no test/);
  const t1 = h.repo.json(`${SPEC}/task-states/T1.state.json`);
  assert.equal(t1.status, 'done');
  assert.equal(t1.retry_count, 1);
});

test('no model: the run stops and every task file is as it was, byte for byte', async () => {
  const h = track(harness());
  const before = loomFail(h);
  h.models.unavailable = new ModelUnavailableError('implementer (standard): no language model is available');
  const result = await h.loop.run(new AbortController().signal);
  assert.equal(result.outcome, 'model-unavailable');
  assert.deepEqual(readFileSync(h.repo.path(`${SPEC}/task-states/T1.state.json`)), before);
  assert.equal(existsSync(h.repo.path(`${SPEC}/task-states/T2.state.json`)), false);
});

test("a model that refuses the first request: the task's blocker and fix items are as they were", async () => {
  const h = track(harness());
  const before = loomFail(h);
  h.models.script('implementer', { throws: new ModelRequestError('the user did not allow the extension to use the model', 'NoPermissions') });
  const result = await h.loop.run(new AbortController().signal);
  assert.equal(result.outcome, 'model-unavailable');
  assert.deepEqual(readFileSync(h.repo.path(`${SPEC}/task-states/T1.state.json`)), before);
});

test('the model is checked before the person is asked (declining then writes nothing), and a refusal for what the person must do comes first', async () => {
  const h = track(harness());
  loomFail(h);
  const before = filesOf(h.specDir);
  h.models.missing = 'no language model is available; install or sign in to a language model provider';
  const refused = await askToRun(h);
  assert.equal(refused.kind, 'refused');
  if (refused.kind !== 'refused') return;
  assert.equal(refused.code, 'no-model');
  assert.deepEqual(refused.remedies, [{ kind: 'model-settings' }]);
  assert.match(refused.message, /no language model can run the tasks \(no language model is available; install/);
  assert.deepEqual(filesOf(h.specDir), before);
  assert.equal(h.models.requests.length, 0);

  // With a model, the person is asked; asking writes nothing, so declining leaves every file byte for byte.
  h.models.missing = undefined;
  assert.equal((await askToRun(h)).kind, 'needs-confirmation');
  assert.deepEqual(filesOf(h.specDir), before);

  // The spec is not at the stage that runs tasks: that is said, not the model.
  const early = track(harness({ stage: 'approved', history: [{ stage: 'planning', status: 'passed' }] }));
  early.models.missing = 'no language model is available';
  const notYet = await askToRun(early);
  assert.equal(notYet.kind === 'refused' && notYet.code, 'not-at-task-stage');
});
