'use strict';
/**
 * Code review answered by Loom in a real VS Code, through the scripted model: a feature at
 * code-review-response, its feature worktree made by Create Worktree, and review-feedback.md with
 * one BLOCKER on src/greet.js. At the review gate, Answer Review sends it to T1's implementer in fix
 * mode (reviewed, tested, checkpointed), re-runs the tests and answers in review-response.md without
 * passing the gate; after the reviewer's PASS round, Run Pipeline in Autopilot answers the review at
 * code-review-response (the BLOCKER listed as fixed at the gate) and goes on to synced, where the
 * memory is synced. Sync before synced is refused by the actor.
 */
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { git, loom, readJson, settle } = require('../helpers');

const WS = process.env.LOOM_TEST_WORKSPACE;
const SPEC = 'specs/2026-12-01+greeting';
const DIR = path.join(WS, SPEC);

const write = (rel, content) => {
  const file = path.join(WS, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`);
};

const FEEDBACK =
  '# Review feedback: Greeting\n\nReviewer: Mei\n\n- BLOCKER: `src/greet.js:1` say in a comment that a missing name is the caller’s to check\n- SUGGESTION: `tests/greet.test.js` could cover an empty name\n\nverdict: CHANGES_REQUESTED\n';

const PASSED = FEEDBACK.replace(/- BLOCKER: .*\n/, '').replace('CHANGES_REQUESTED', 'PASS');

/** The greeting feature done through review-gate: its code on the main branch, the spec at code-review-response. */
function greetingAtCodeReviewResponse() {
  write('package.json', { name: 'greeting', private: true, scripts: { test: 'node --test' } });
  write('src/greet.js', 'exports.greet = (name) => `Hello, ${name}!`;\n');
  write(
    'tests/greet.test.js',
    "const test = require('node:test');\nconst assert = require('node:assert');\nconst { greet } = require('../src/greet');\ntest('REQ-001-B01 greets by name', () => assert.strictEqual(greet('Ada'), 'Hello, Ada!'));\n",
  );
  write('.gitignore', '.worktree/\nnode_modules/\n');
  write(`${SPEC}/spec.md`, '# Greeting\n\n## REQ-001 Greet by name\n\nThe service greets a person by name.\n');
  write(`${SPEC}/requirements.json`, {
    requirements: [
      {
        id: 'REQ-001',
        status: 'in_progress',
        types: ['functional'],
        required_categories: ['happy-path'],
        acceptance: ['a person is greeted by name'],
        behaviors: [{ id: 'REQ-001-B01', category: 'happy-path', description: 'greets by name', status: 'in_progress', acceptance: ['Hello, Ada!'] }],
      },
    ],
  });
  write(`${SPEC}/plan.md`, '# Plan: Greeting\n\n## Decisions\n\n- Greetings are plain text, no templates\n\n## Tasks\n\n- [T1](tasks/T1.md) greet by name\n');
  write(
    `${SPEC}/tasks/T1.md`,
    '---\nowns: [src/greet.js, tests/greet.test.js]\nreads: []\ndepends_on: []\nrequirements: [REQ-001]\nbehavior_ids: [REQ-001-B01]\n---\n# T1: Greet by name\n\nWrite `greet(name)`.\n',
  );
  write(`${SPEC}/traceability.json`, {
    requirements: {
      'REQ-001': {
        tasks: ['T1'],
        tests: ['tests/greet.test.js'],
        evidence: [],
        behaviors: { 'REQ-001-B01': { tasks: ['T1'], tests: ['tests/greet.test.js#REQ-001-B01 greets by name'], evidence: [] } },
      },
    },
  });
  write(`${SPEC}/task-states/T1.state.json`, {
    task_id: 'T1',
    spec_dir: SPEC,
    status: 'done',
    retry_count: 0,
    agent_session_id: null,
    created_at: '2026-12-01T09:00:00.000Z',
    updated_at: '2026-12-01T10:00:00.000Z',
    last_reviewer_result: 'PASS',
    blocker: null,
  });
  write(`${SPEC}/verify-report.md`, '# Verification: Greeting\n\nverdict: PASS\n');
  write(`${SPEC}/review-request.md`, '# Code review request: Greeting\n\nGreets a person by name (REQ-001).\n');
  write(`${SPEC}/pipeline.state.json`, {
    spec_dir: SPEC,
    pipeline_type: 'feature',
    current_stage: 'code-review-response',
    loom_version: '2.3.0',
    started_at: '2026-12-01T08:00:00.000Z',
    updated_at: '2026-12-01T11:00:00.000Z',
    current_stage_started_at: '2026-12-01T11:00:00.000Z',
    stage_history: [],
    metadata: {},
  });
}

suite('Loom: Answer Review', () => {
  let api;
  let worktree;

  suiteSetup(async function () {
    this.timeout(120000);
    greetingAtCodeReviewResponse();
    // The workspace as a repository (run alone it is not one yet), the feature's code committed.
    if (!fs.existsSync(path.join(WS, '.git'))) git(WS, 'init', '-q', '-b', 'main');
    git(WS, 'add', '-A');
    git(WS, '-c', 'user.name=Loom Test', '-c', 'user.email=test@example.com', 'commit', '-qm', 'the greeting feature', '--allow-empty');
    api = await loom();
    await settle(api);
    // The worktree first: it starts from a clean HEAD, and the setting below is an uncommitted change.
    const made = await vscode.commands.executeCommand('loom.createWorktree', { specDir: DIR });
    assert.strictEqual(made.status, 'done', JSON.stringify(made));
    worktree = vscode.Uri.parse(made.uri).fsPath;
    await vscode.workspace.getConfiguration('loom').update('models.vendor', 'loom-test', vscode.ConfigurationTarget.Workspace);
    write(`${SPEC}/review-feedback.md`, FEEDBACK);
    await settle(api);
  });

  suiteTeardown(async () => {
    await vscode.workspace.getConfiguration('loom').update('models.vendor', undefined, vscode.ConfigurationTarget.Workspace);
  });

  test('Sync before synced is refused by the actor, in its words; the memory store is not written', async () => {
    const answer = await vscode.commands.executeCommand('loom.syncFeature', { specDir: DIR });
    assert.strictEqual(answer.status, 'refused', JSON.stringify(answer));
    assert.strictEqual(answer.code, 'not-at-sync');
    assert.match(answer.message, /is at code-review-response; Loom syncs a feature at synced\. Nothing was written/);
    assert.ok(!fs.existsSync(path.join(WS, '.loom', 'memory', 'store.json')));
  });

  test('Answer Review at the review gate: the BLOCKER fixed by T1 in fix mode and answered in review-response.md, the gate left shut, the same feedback not answered twice', async function () {
    this.timeout(180000);
    const setStage = async (stage) => {
      write(`${SPEC}/pipeline.state.json`, { ...readJson(path.join(DIR, 'pipeline.state.json')), current_stage: stage });
      await settle(api);
    };
    await setStage('review-gate');
    try {
      const answer = await vscode.commands.executeCommand('loom.answerReview', { specDir: DIR });
      assert.strictEqual(answer.status, 'done', JSON.stringify(answer));
      assert.strictEqual(answer.outcome, 'answered', answer.message);
      // The notification says the gate is still shut and what opens it.
      assert.match(answer.message, /The review gate stays shut: the reviewer's new verdict in review-feedback\.md and your approval continue it\./);
      assert.match(fs.readFileSync(path.join(worktree, 'src', 'greet.js'), 'utf8'), /checked as the review asked/);
      const response = fs.readFileSync(path.join(DIR, 'review-response.md'), 'utf8');
      assert.match(response, /say in a comment that a missing name is the caller’s to check \| fixed by T1 in fix mode/);
      assert.match(response, /Answered at the review gate \(review-gate\)/);
      assert.ok(!fs.existsSync(path.join(DIR, 'handoffs', 'code-review-response.json')), 'the gate is not passed');
      assert.strictEqual(readJson(path.join(DIR, 'pipeline.state.json')).current_stage, 'review-gate');
      const again = await vscode.commands.executeCommand('loom.answerReview', { specDir: DIR });
      assert.strictEqual(again.status, 'refused', JSON.stringify(again));
      assert.match(again.message, /no BLOCKER and no open code comment thread Loom has not answered yet/);
    } finally {
      // The reviewer's second round passes; approved (as the gate's approval would move it), the suite goes on at code-review-response.
      write(`${SPEC}/review-feedback.md`, PASSED);
      await setStage('code-review-response');
    }
  });

  test('Run Pipeline at code-review-response after the PASS round: review-response.md lists the BLOCKER T1 fixed at the gate, the tests re-run, on to synced', async function () {
    this.timeout(180000);
    const run = await vscode.commands.executeCommand('loom.runPipeline', { specDir: DIR, mode: 'autopilot' });
    assert.strictEqual(run.status, 'done', JSON.stringify(run));
    assert.deepStrictEqual([run.outcome, run.to], ['done', 'synced'], run.message);
    assert.strictEqual(readJson(path.join(DIR, 'pipeline.state.json')).current_stage, 'synced');

    // T1 went back to its implementer with the reviewer's words, and its fix is a checkpoint on the feature branch.
    const requests = await vscode.commands.executeCommand('loomTest.requests');
    assert.ok(requests.some((r) => r.role === 'implementer' && r.task === 'T1'));
    assert.match(fs.readFileSync(path.join(worktree, 'src', 'greet.js'), 'utf8'), /checked as the review asked/);
    assert.strictEqual(git(worktree, 'log', '-1', '--format=%s'), 'T1: Greet by name');
    const t1 = readJson(path.join(DIR, 'task-states', 'T1.state.json'));
    assert.strictEqual(t1.status, 'done');

    const response = fs.readFileSync(path.join(DIR, 'review-response.md'), 'utf8');
    assert.match(response, /say in a comment that a missing name is the caller’s to check \| fixed by T1 in fix mode[^|]*\(fixed at the review gate, [^)]+\) \|/);
    assert.match(response, /could cover an empty name \| not a BLOCKER/);
    const log = /evidence-file: (\S+)/.exec(response)[1];
    assert.ok(fs.existsSync(path.join(DIR, log)), `${log} is kept`);
    assert.match(response, /\nverdict: PASS\n$/);
    assert.strictEqual(readJson(path.join(DIR, 'handoffs', 'code-review-response.json')).status, 'done');
    assert.strictEqual(fs.readFileSync(path.join(DIR, 'review-feedback.md'), 'utf8'), PASSED, 'the reviewer’s file is untouched');
    // The synced stage's memory update ran: the plan's decision is remembered.
    const memory = readJson(path.join(WS, '.loom', 'memory', 'store.json'));
    assert.ok(
      memory.entries.some((e) => e.type === '决策' && /Greetings are plain text/.test(e.content)),
      JSON.stringify(memory.entries),
    );
  });

  test('Answer Review elsewhere is refused with the actor’s words; nothing is written', async () => {
    const answer = await vscode.commands.executeCommand('loom.answerReview', { specDir: DIR });
    assert.strictEqual(answer.status, 'refused');
    assert.strictEqual(answer.code, 'not-at-review-response');
    assert.match(answer.message, /is at synced; Loom answers the review at code-review-response/);
  });
});
