import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { after, test } from 'node:test';
import { ModelRequestError } from '../../../src/core/executing/dispatch/chatModel';
import type { AnswerReviewInput } from '../../../src/core/port/intent';
import { request } from '../../../src/core/port/request';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { findPlaceholder } from '../../../src/core/files/placeholders';
import { parseReviewFeedback } from '../../../src/core/review/feedbackPoints';
import { reviewAnswered } from '../../../src/core/review/reviewToAnswer';
import { runPipeline, type RunPorts } from '../../../src/core/pipelineRun/pipelineRun';
import { autopilotPorts } from '../pipelineRun/autopilotPorts';
import type { SpecPipeline } from '../../../src/core/repository/specPipeline';
import { harness, implementerDone, implementerFixed, PASS, REPORT_PASS, SPEC, type Harness } from '../executing/helpers/executingFixture';

// Code review answered by Loom (issue 34, item 2), as loom's loom-receiving-code-review skill does
// it: each BLOCKER of review-feedback.md goes back to the implementer in fix mode (the executing
// machinery: reviewer, tests, retry limit, breaker), the tests are re-run, and review-response.md
// is written in the skill's template (references/response-templates.md). Checked by hand with
// loom 3 while developing: its `run --advance --compression-confirmed` (pipeline-engine.js advance → checkStageOutputs of
// code-review-response's outputs [review-response.md, handoffs/code-review-response.json])
// accepts what is written here and moves the spec to synced.

const made: Harness[] = [];
after(() => made.forEach((h) => h.repo.dispose()));

const WORKTREE = '.worktree/2026-11-25-due-dates';

/** The fixture's pipeline on to synced, as the sample's feature pipeline goes. */
const WORKFLOW = `defaults:\n  pipeline_type: feature\n  max_retries: 3\n  timeout_minutes: 30\npipelines:\n  feature:\n    steps:\n      - id: planning\n        next: approved\n        outputs: [plan.md, tasks/, traceability.json]\n      - id: approved\n        gate: human-approval\n        next: executing\n      - id: executing\n        skill: loom-subagent-driven-development\n        next: verification\n        outputs: [test-report.md]\n        config:\n          max_retries: 2\n          timeout_minutes: 30\n      - id: verification\n        next: code-review-request\n        outputs: [verify-report.md]\n      - id: code-review-request\n        next: review-gate\n        outputs: [review-request.md]\n      - id: review-gate\n        gate: human-approval\n        requires: [review-request.md]\n        approval_requires: [review-feedback.md]\n        next: code-review-response\n      - id: code-review-response\n        skill: loom-receiving-code-review\n        next: synced\n        requires: [review-request.md, review-feedback.md]\n        outputs: [review-response.md, handoffs/code-review-response.json]\n      - id: synced\n        skill: loom-index-update\n        requires: [verify-report.md]\n        outputs: []\n`;

const FEEDBACK = [
  '# Review feedback: Due dates',
  '',
  'Reviewer: Mei',
  '',
  '- BLOCKER: `src/due.js:1` parseDueDate accepts 2026-13-01; reject months outside 1-12',
  '- SUGGESTION: `src/format.js` could take a locale later',
  '- QUESTION: should an empty string be read as no due date?',
  '',
  'verdict: CHANGES_REQUESTED',
  '',
].join('\n');

const git = (cwd: string, ...args: string[]) => spawnSync('git', args, { cwd, encoding: 'utf8' }).stdout.trim();

/** T1 and T2 done in the feature worktree, the spec moved on to code-review-response (or `stage`) with the reviewer's feedback. */
async function atCodeReviewResponse(feedback = FEEDBACK, stage = 'code-review-response'): Promise<Harness> {
  const h = harness({ worktree: WORKTREE });
  made.push(h);
  h.models.script('implementer', ...implementerDone('T1'), ...implementerDone('T2'));
  h.models.script('reviewer', PASS, PASS);
  h.models.script('test-reporter', REPORT_PASS);
  const ran = await h.loop.run(new AbortController().signal);
  assert.equal(ran.outcome, 'completed', ran.message);
  h.repo.write('.loom/workflow.yaml', WORKFLOW);
  h.repo.write(`${SPEC}/verify-report.md`, '# Verification\n\nverdict: PASS\n');
  h.repo.write(`${SPEC}/review-request.md`, '# Code review request: due dates\n\nParses and shows due dates (REQ-001, REQ-002).\n');
  h.repo.write(`${SPEC}/review-feedback.md`, feedback);
  h.repo.write(`${SPEC}/pipeline.state.json`, { ...(h.repo.json(`${SPEC}/pipeline.state.json`) as object), current_stage: stage });
  return h;
}

function answerInput(h: Harness, signal = new AbortController().signal): AnswerReviewInput {
  return {
    writer: 'unit test',
    run: { worktree: h.repo.path(WORKTREE), models: h.models, prompts: h.prompts, transcripts: h.transcripts, testRunner: h.tests, signal, settings: { trusted: true, testCommand: 'npm test' } },
  };
}

const specOf = (h: Harness) => new LoomRepository(h.repo.root).load().get(SPEC)!;

test('review-feedback.md read as the skill sorts it: a BLOCKER with its file and line, a suggestion, a question; a BLOCKER outside a point is named with its line', () => {
  const read = parseReviewFeedback(FEEDBACK);
  assert.ok('points' in read);
  assert.deepEqual(
    read.points.map((p) => [p.kind, p.file, p.location]),
    [
      ['blocker', 'src/due.js', '1'],
      ['suggestion', 'src/format.js', undefined],
      ['discussion', undefined, undefined],
    ],
  );
  const loose = parseReviewFeedback('# Review\n\nThis is a BLOCKER for me.\n\nverdict: FAIL\n', 'specs/x/review-feedback.md');
  assert.ok('problem' in loose);
  assert.match(loose.problem, /specs\/x\/review-feedback\.md says BLOCKER on line 3 outside a point/);
  const under = parseReviewFeedback('## BLOCKER\n\n- `src/a.js:3` leaks the handle\n\n## 建议\n\n- rename it\n');
  assert.deepEqual('points' in under && under.points.map((p) => p.kind), ['blocker', 'suggestion']);
});

test('one BLOCKER: its task goes back to the implementer in fix mode, is reviewed and checkpointed; the tests are re-run as evidence; review-response.md says it is fixed and the suggestion declined with why', async () => {
  const h = await atCodeReviewResponse();
  const wt = h.repo.path(WORKTREE);
  h.models.script('implementer', ...implementerFixed('T1'));
  h.models.script('reviewer', PASS);
  h.models.script('test-reporter', REPORT_PASS);
  const runsBefore = h.tests.runs.length;
  const answer = await request(specOf(h), { type: 'answerReview', answer: answerInput(h) });
  assert.equal(answer.kind, 'changed', answer.kind === 'refused' ? answer.message : '');
  if (answer.kind !== 'changed') return;
  assert.equal(answer.fixes, 1);
  assert.equal(answer.result?.outcome, 'completed');
  assert.equal(answer.response?.verdict, 'PASS');
  assert.equal(answer.response?.handoff, 'handoffs/code-review-response.json');

  // The implementer got the reviewer's words as its fix item, in fix mode.
  const prompts = h.models.promptsOf('implementer');
  assert.match(prompts[prompts.length - 1], /parseDueDate accepts 2026-13-01; reject months outside 1-12/);
  const t1 = h.repo.json(`${SPEC}/task-states/T1.state.json`);
  assert.equal(t1.status, 'done');
  assert.equal(t1.metadata.checkpoints.length, 2, 'the fix is a checkpoint of its own');
  assert.match(readFileSync(`${wt}/src/due.js`, 'utf8'), /\/\/ fixed/);
  assert.equal(git(wt, 'status', '--porcelain'), '');
  assert.equal(h.repo.json(`${SPEC}/task-states/T2.state.json`).status, 'done', 'T2 had nothing to fix');

  // The tests re-run after the fix, their log under evidence/ with its sha256.
  assert.ok(h.tests.runs.length > runsBefore);
  const tests = answer.response!.tests!;
  assert.equal(tests.exitCode, 0);
  assert.equal(h.repo.sha256(`${SPEC}/${tests.log}`), tests.sha256);

  const response = h.repo.read(`${SPEC}/review-response.md`);
  assert.match(response, /^# Review response: due-dates/);
  assert.match(
    response,
    /\| 1 \| `src\/due\.js:1` parseDueDate accepts 2026-13-01; reject months outside 1-12 \| fixed by T1 in fix mode, reviewed and tested; changed src\/due\.js \| ✅ `npm test` \|/,
  );
  assert.match(response, /## Declined[\s\S]*`src\/format\.js` could take a locale later \| not a BLOCKER/);
  assert.match(response, /## For discussion\n\n- should an empty string be read as no due date\?/);
  assert.match(response, new RegExp(`evidence-sha256: ${tests.sha256}`));
  assert.match(response, /\nverdict: PASS\n$/);
  const handoff = h.repo.json(`${SPEC}/handoffs/code-review-response.json`);
  assert.equal(handoff.status, 'done');
  assert.deepEqual(handoff.artifacts, ['review-response.md', tests.log]);
  assert.equal(handoff.answered_feedback_sha256, h.repo.sha256(`${SPEC}/review-feedback.md`));
  // The reviewer's file is theirs: untouched.
  assert.equal(h.repo.read(`${SPEC}/review-feedback.md`), FEEDBACK);

  // Answered, it is not answered twice (its fixed BLOCKER would go back to the implementer), until the feedback changes.
  const again = await request(specOf(h), { type: 'answerReview', answer: answerInput(h) });
  assert.equal(again.kind === 'refused' && again.code, 'already-answered');
  assert.deepEqual(again.kind === 'refused' && again.remedies[0], { kind: 'advance' });
  h.repo.write(`${SPEC}/review-feedback.md`, `${FEEDBACK}\n- BLOCKER: \`src/format.js:1\` the month is missing\n`);
  assert.equal(reviewAnswered(specOf(h).snapshot, 'code-review-response'), false, 'new feedback: the answer is stale');
  h.repo.write(`${SPEC}/review-feedback.md`, FEEDBACK);

  // With the response and its handoff, the spec moves on to synced.
  const moved = await request(specOf(h), { type: 'advance', compressionConfirmed: true }, { confirm: true });
  assert.equal(moved.kind === 'changed' && moved.to, 'synced', moved.kind === 'refused' ? `${moved.message}: ${moved.reasons.join('; ')}` : '');
});

test('no BLOCKER: nothing goes to a model; the tests are re-run and the response drafted', async () => {
  const h = await atCodeReviewResponse(FEEDBACK.replace('- BLOCKER: `src/due.js:1` parseDueDate accepts 2026-13-01; reject months outside 1-12\n', '').replace('CHANGES_REQUESTED', 'PASS'));
  const asked = h.models.promptsOf('implementer').length;
  const answer = await request(specOf(h), { type: 'answerReview', answer: answerInput(h) });
  assert.equal(answer.kind === 'changed' && answer.fixes, 0);
  assert.equal(answer.kind === 'changed' && answer.response?.verdict, 'PASS');
  assert.equal(h.models.promptsOf('implementer').length, asked);
  assert.match(h.repo.read(`${SPEC}/review-response.md`), /The review has no BLOCKER: nothing had to be fixed\./);
});

test("a reviewer's point holding loom's placeholder words is quoted so that loom leaves code-review-response: review-response.md holds none, says why, and the spec moves on", async () => {
  // loom 3 refuses the stage with a review-response.md quoting "TODO" as the reviewer wrote it:
  // PipelineEngine.advance → checkStageOutputs → hasPlaceholder (artifact-checker.js: the markers
  // TBD|TODO|FIXME|XXX case-sensitive, "implement later|fill in details|placeholder text" in any
  // case, {{NAME}}): "Stage "code-review-response" outputs incomplete: placeholders in:
  // review-response.md". The same file with the marker in lower case advances to synced (checked
  // with its `run --advance --compression-confirmed`).
  const feedback = FEEDBACK.replace('- BLOCKER: `src/due.js:1` parseDueDate accepts 2026-13-01; reject months outside 1-12\n', '')
    .replace('could take a locale later', 'needs a TODO for the locale, or Fill In Details of {{LOCALE}}')
    .replace('CHANGES_REQUESTED', 'PASS');
  const h = await atCodeReviewResponse(feedback);
  const answer = await request(specOf(h), { type: 'answerReview', answer: answerInput(h) });
  assert.equal(answer.kind === 'changed' && answer.response?.verdict, 'PASS');
  const response = h.repo.read(`${SPEC}/review-response.md`);
  assert.equal(findPlaceholder(response), undefined, response);
  assert.match(response, /needs a todo for the locale, or Fill-In-Details of \{\{locale\}\}/);
  assert.match(response, /quoted in lower case or hyphenated, so that loom can leave this stage/);
  const moved = await request(specOf(h), { type: 'advance', compressionConfirmed: true }, { confirm: true });
  assert.equal(moved.kind, 'changed', moved.kind === 'refused' ? moved.message : '');
  assert.equal(moved.kind === 'changed' && moved.to, 'synced');
});

for (const stage of ['code-review-response', 'review-gate'])
  test(`a failing test after the fix at ${stage}: review-response.md says FAIL and no handoff is written, so the spec does not move on; no round is recorded`, async () => {
    const h = await atCodeReviewResponse(FEEDBACK, stage);
    h.models.script('implementer', ...implementerFixed('T1'));
    h.models.script('reviewer', PASS);
    h.models.script('test-reporter', REPORT_PASS);
    // The task's own test runs pass; the project's tests re-run once the fix is checkpointed fail.
    const fixed = () => (h.repo.json(`${SPEC}/task-states/T1.state.json`).metadata.checkpoints ?? []).length === 2;
    const runner = {
      run: async (command: string) =>
        fixed()
          ? { command, exitCode: 1, output: 'not ok 1 - REQ-001-B02 rejects an invalid date\n# fail 1\n', timedOut: false, durationMs: 5 }
          : { command, exitCode: 0, output: 'ok\n', timedOut: false, durationMs: 5 },
    };
    const input = answerInput(h);
    const answer = await request(specOf(h), { type: 'answerReview', answer: { ...input, run: { ...input.run, testRunner: runner } } });
    assert.equal(answer.kind === 'changed' && answer.response?.verdict, 'FAIL');
    assert.equal(existsSync(h.repo.path(`${SPEC}/handoffs/code-review-response.json`)), false);
    assert.match(h.repo.read(`${SPEC}/review-response.md`), /\nverdict: FAIL\n$/);
    assert.equal(existsSync(h.repo.path(`${SPEC}/review-answers.json`)), false, 'answering again takes the BLOCKER up again');
  });

test('refusals name the cause: an unreadable review-feedback.md or review-comments.json, a response a person wrote, another stage; nothing is written', async () => {
  const h = await atCodeReviewResponse('# Review\n\nThis is a BLOCKER for me.\n\nverdict: FAIL\n');
  const bad = await request(specOf(h), { type: 'answerReview', answer: answerInput(h) });
  assert.equal(bad.kind, 'refused');
  assert.equal(bad.kind === 'refused' && bad.code, 'corrupt-file');
  assert.match(bad.kind === 'refused' ? bad.message : '', /review-feedback\.md says BLOCKER on line 3 outside a point/);
  assert.deepEqual(bad.kind === 'refused' && bad.remedies, [{ kind: 'open-file', file: 'review-feedback.md', exists: true }]);

  h.repo.write(`${SPEC}/review-feedback.md`, FEEDBACK);
  h.repo.write(`${SPEC}/review-comments.json`, '{"version": 1, "threads": [');
  const threads = await request(specOf(h), { type: 'answerReview', answer: answerInput(h) });
  assert.equal(threads.kind === 'refused' && threads.code, 'corrupt-file');
  assert.match(threads.kind === 'refused' ? threads.message : '', /review-comments\.json is not valid JSON/);
  assert.equal(h.repo.read(`${SPEC}/review-comments.json`), '{"version": 1, "threads": [', 'left as it was');
  rmSync(h.repo.path(`${SPEC}/review-comments.json`));
  h.repo.write(`${SPEC}/review-response.md`, '# My own answer\n');
  const mine = await request(specOf(h), { type: 'answerReview', answer: answerInput(h) });
  assert.match(mine.kind === 'refused' ? mine.message : '', /review-response\.md is there and was not written by Loom: it is kept/);
  assert.equal(h.repo.read(`${SPEC}/review-response.md`), '# My own answer\n');

  h.repo.write(`${SPEC}/pipeline.state.json`, { ...(h.repo.json(`${SPEC}/pipeline.state.json`) as object), current_stage: 'verification' });
  const elsewhere = await request(specOf(h), { type: 'answerReview', answer: answerInput(h) });
  assert.equal(elsewhere.kind === 'refused' && elsewhere.code, 'not-at-review-response');
  assert.equal(h.repo.json(`${SPEC}/task-states/T1.state.json`).status, 'done', 'no task was sent back');
});

test('a model that refuses stops the fix run: the answer says how it ended and no response is written', async () => {
  const h = await atCodeReviewResponse();
  h.models.unavailable = new ModelRequestError('the model refused the request (content filter)', 'Blocked');
  const answer = await request(specOf(h), { type: 'answerReview', answer: answerInput(h) });
  assert.equal(answer.kind, 'changed');
  assert.equal(answer.kind === 'changed' && answer.result?.outcome, 'model-unavailable');
  assert.equal(answer.kind === 'changed' && answer.response, undefined);
  assert.equal(existsSync(h.repo.path(`${SPEC}/review-response.md`)), false);
});

/** Run Pipeline's ports for a spec past drafting: only the review's answer and the sync are asked for. */
const pipelinePorts = (spec: SpecPipeline, answerReview: RunPorts['answerReview']) => autopilotPorts(spec, async () => assert.fail('no stage of this run drafts with the model'), { answerReview });

test('Run Pipeline at code-review-response: the review answered through the port, then on to synced and its sync', async () => {
  const h = await atCodeReviewResponse();
  h.models.script('implementer', ...implementerFixed('T1'));
  h.models.script('reviewer', PASS);
  h.models.script('test-reporter', REPORT_PASS);
  const spec = specOf(h);
  const stop = await runPipeline(
    spec,
    pipelinePorts(spec, async () => {
      // As the palette's Answer Review tells it (src/host/executing/executingCommands.ts).
      const a = await request(spec, { type: 'answerReview', answer: answerInput(h) });
      if (a.kind !== 'changed') return { kind: 'refused', message: a.kind === 'refused' ? a.message : a.question.title };
      if (!a.response) return { kind: 'stopped', outcome: a.result?.outcome ?? 'cancelled', message: a.result?.message ?? '' };
      return { kind: 'answered', passed: a.response.verdict === 'PASS', message: `answered ${a.response.verdict}`, wrote: [a.response.file] };
    }),
  );
  assert.equal(stop.reason, 'done', stop.message);
  assert.equal(stop.stage, 'synced');
  assert.deepEqual(
    stop.stages.map((s) => [s.stage, s.work]),
    [
      ['code-review-response', 'reviewResponse'],
      ['synced', 'sync'],
    ],
  );
  assert.ok(stop.stages[0].wrote.includes('review-response.md'));
  assert.ok(stop.stages[0].tokens > 0, 'the fix run’s subagent tokens count for the stage');
  assert.equal(h.repo.json(`${SPEC}/pipeline.state.json`).current_stage, 'synced');
});

test('Run Pipeline stops at a tripped breaker of the fix run, as Run Tasks does', async () => {
  const h = await atCodeReviewResponse();
  const spec = specOf(h);
  const stop = await runPipeline(
    spec,
    pipelinePorts(spec, async () => ({ kind: 'stopped', outcome: 'blocked', message: 'T1 tripped the circuit breaker' })),
  );
  assert.equal(stop.reason, 'breaker');
  assert.equal(stop.stage, 'code-review-response');
});

// Between review rounds (issue 34, item 2: "review feedback with one BLOCKER; it fixes it, answers
// and reaches synced"): loom 3 never lets a BLOCKER past the review gate (pipeline-engine.js
// checkReviewFeedbackApproval: verdict PASS and no BLOCKER/FAIL/CHANGES_REQUESTED), so the
// BLOCKERs are fixed at the gate, as the receiving-code-review skill does before the next round.
// Checked by hand with loom 3: after the gate's answer and the PASS round, `run --advance
// --compression-confirmed` (advance → checkStageOutputs of code-review-response) accepts the
// response written at code-review-response and moves the spec to synced.

const PASS_FEEDBACK = ['# Review feedback: Due dates (round 2)', '', '- SUGGESTION: `src/format.js` could take a locale later', '', 'verdict: PASS', ''].join('\n');

test('a BLOCKER at the review gate: fixed in fix mode, answered in review-response.md without a handoff, the gate still shut, not answered twice; after PASS and approval the response lists the earlier fix and the spec reaches synced', async () => {
  const h = await atCodeReviewResponse(FEEDBACK, 'review-gate');
  const wt = h.repo.path(WORKTREE);
  h.models.script('implementer', ...implementerFixed('T1'));
  h.models.script('reviewer', PASS);
  h.models.script('test-reporter', REPORT_PASS);
  const answer = await request(specOf(h), { type: 'answerReview', answer: answerInput(h) });
  assert.equal(answer.kind, 'changed', answer.kind === 'refused' ? answer.message : '');
  if (answer.kind !== 'changed') return;
  assert.equal(answer.fixes, 1);
  assert.equal(answer.response?.verdict, 'PASS');
  assert.equal(answer.response?.handoff, undefined, 'the gate is not passed by the answer');
  assert.match(readFileSync(`${wt}/src/due.js`, 'utf8'), /\/\/ fixed/);
  assert.equal(existsSync(h.repo.path(`${SPEC}/handoffs/code-review-response.json`)), false);
  const round1 = h.repo.read(`${SPEC}/review-response.md`);
  assert.match(round1, /<!-- loom: answered-review -->/);
  assert.match(
    round1,
    /\| 1 \| `src\/due\.js:1` parseDueDate accepts 2026-13-01; reject months outside 1-12 \| fixed by T1 in fix mode, reviewed and tested; changed src\/due\.js \| ✅ `npm test` \|/,
  );
  assert.match(round1, /Answered at the review gate \(review-gate\)[^\n]*The reviewer’s new verdict in review-feedback\.md, then your approval, continue the pipeline\./);
  const record = h.repo.json(`${SPEC}/review-answers.json`);
  assert.equal(record.rounds.length, 1);
  assert.equal(record.rounds[0].feedback_sha256, h.repo.sha256(`${SPEC}/review-feedback.md`));
  assert.deepEqual(
    record.rounds[0].points.map((p: { answer: string; task: string; files: string[] }) => [p.answer, p.task, p.files]),
    [['fixed', 'T1', ['src/due.js']]],
  );
  assert.equal(h.repo.json(`${SPEC}/pipeline.state.json`).current_stage, 'review-gate');
  const approveNow = await request(specOf(h), { type: 'approve', compressionConfirmed: true }, { confirm: true });
  assert.equal(approveNow.kind, 'refused', 'the BLOCKER in review-feedback.md keeps the gate shut until the reviewer says PASS');

  // The same feedback is not answered twice: its fixed BLOCKER would go back to the implementer.
  const asked = h.models.promptsOf('implementer').length;
  const again = await request(specOf(h), { type: 'answerReview', answer: answerInput(h) });
  assert.equal(again.kind === 'refused' && again.code, 'already-answered');
  assert.match(again.kind === 'refused' ? again.message : '', /no BLOCKER and no open code comment thread Loom has not answered yet/);
  assert.equal(h.models.promptsOf('implementer').length, asked);

  // The reviewer's second round passes; the person approves; the review is answered at code-review-response.
  h.repo.write(`${SPEC}/review-feedback.md`, PASS_FEEDBACK);
  const approved = await request(specOf(h), { type: 'approve', compressionConfirmed: true }, { confirm: true });
  assert.equal(approved.kind === 'changed' && approved.to, 'code-review-response', approved.kind === 'refused' ? `${approved.message}: ${approved.reasons.join('; ')}` : '');
  const final = await request(specOf(h), { type: 'answerReview', answer: answerInput(h) });
  assert.equal(final.kind, 'changed', final.kind === 'refused' ? final.message : '');
  if (final.kind !== 'changed') return;
  assert.equal(final.fixes, 0);
  assert.equal(final.response?.handoff, 'handoffs/code-review-response.json');
  assert.equal(h.models.promptsOf('implementer').length, asked, 'nothing more to fix');
  const response = h.repo.read(`${SPEC}/review-response.md`);
  assert.match(response, /\| 1 \| `src\/due\.js:1` parseDueDate accepts 2026-13-01[^|]*\| fixed by T1 in fix mode, reviewed and tested; changed src\/due\.js \(fixed at the review gate, [^)]+\) \|/);
  assert.match(response, /## Declined[\s\S]*`src\/format\.js` could take a locale later \| not a BLOCKER/);
  assert.doesNotMatch(response, /Answered at the review gate/);
  assert.match(response, /\nverdict: PASS\n$/);
  const moved = await request(specOf(h), { type: 'advance', compressionConfirmed: true }, { confirm: true });
  assert.equal(moved.kind === 'changed' && moved.to, 'synced', moved.kind === 'refused' ? `${moved.message}: ${moved.reasons.join('; ')}` : '');
});

test('at the review gate: an unreadable review-answers.json is refused by name and left as it was; feedback that passes has nothing to fix there', async () => {
  const h = await atCodeReviewResponse(FEEDBACK, 'review-gate');
  h.repo.write(`${SPEC}/review-answers.json`, '{"version": 1, "rounds": {}}');
  const bad = await request(specOf(h), { type: 'answerReview', answer: answerInput(h) });
  assert.equal(bad.kind === 'refused' && bad.code, 'corrupt-file');
  assert.match(bad.kind === 'refused' ? bad.message : '', /review-answers\.json does not read as the review rounds Loom answered \(rounds:/);
  assert.equal(h.repo.read(`${SPEC}/review-answers.json`), '{"version": 1, "rounds": {}}');
  rmSync(h.repo.path(`${SPEC}/review-answers.json`));
  h.repo.write(`${SPEC}/review-feedback.md`, PASS_FEEDBACK);
  const none = await request(specOf(h), { type: 'answerReview', answer: answerInput(h) });
  assert.equal(none.kind === 'refused' && none.code, 'already-answered');
  assert.equal(existsSync(h.repo.path(`${SPEC}/review-response.md`)), false);
});

test('Run Pipeline at the review gate with a BLOCKER: the review answered through the port, then the run stops at the gate saying what was fixed; a second run does not answer again', async () => {
  const h = await atCodeReviewResponse(FEEDBACK, 'review-gate');
  h.models.script('implementer', ...implementerFixed('T1'));
  h.models.script('reviewer', PASS);
  h.models.script('test-reporter', REPORT_PASS);
  let answers = 0;
  const port = (spec: SpecPipeline) => async () => {
    answers++;
    const a = await request(spec, { type: 'answerReview', answer: answerInput(h) });
    if (a.kind !== 'changed') return { kind: 'refused' as const, message: a.kind === 'refused' ? a.message : a.question.title };
    if (!a.response) return { kind: 'stopped' as const, outcome: a.result?.outcome ?? 'cancelled', message: a.result?.message ?? '' };
    return { kind: 'answered' as const, passed: a.response.verdict === 'PASS', message: `answered ${a.response.verdict}`, wrote: [a.response.file] };
  };
  const spec = specOf(h);
  const stop = await runPipeline(spec, pipelinePorts(spec, port(spec)));
  assert.equal(stop.reason, 'review-gate', stop.message);
  assert.match(stop.message, /Loom fixed 1 point\(s\) of the review and re-ran the tests \(review-response\.md\); the reviewer’s new verdict in review-feedback\.md and your approval continue it/);
  assert.ok(stop.stages[0].wrote.includes('review-response.md'));
  assert.equal(answers, 1);
  assert.equal(h.repo.json(`${SPEC}/pipeline.state.json`).current_stage, 'review-gate');

  const spec2 = specOf(h);
  const second = await runPipeline(spec2, pipelinePorts(spec2, port(spec2)));
  assert.equal(answers, 1, 'answered feedback is not answered again');
  assert.equal(second.reason, 'review-gate');
  assert.match(second.message, /review feedback does not pass yet/);
});
