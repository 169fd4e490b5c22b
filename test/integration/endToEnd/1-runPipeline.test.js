'use strict';
/**
 * Issue 34's scenario in a real VS Code, on a copy of the sample made a throwaway git repository:
 * New Feature "export todos as CSV", then Loom: Run Pipeline in Autopilot with the scripted model
 * (drafts of test/fixtures/authoring-csv, the implementer and reviewer subagents of script.js). It
 * stops at each human-approval gate saying why, goes on through the worktree, executing, converge,
 * verification (the sample's `npm test` run for real in the worktree) and the review request,
 * stops at the review gate, refuses a review with one BLOCKER there, and after the reviewer's
 * second round answers the review (Loom: Answer Review) and reaches synced.
 * Stop Pipeline ends a run at once with nothing half-written; Supervised waits for Write.
 *
 * Two windows one after the other (runTests.js `windows: 2`), as a reload makes: the first ends
 * while the run is in the middle of executing (the implementer does not answer), the second
 * resumes it from loom's files, without drafting any stage again.
 */
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { loom, readJson, settle, waitFor, confirmInQuickPick } = require('../helpers');

const WS = process.env.LOOM_TEST_WORKSPACE;
const FIXTURE = process.env.LOOM_TEST_AUTHORING_FIXTURE;
const fixture = (name) => fs.readFileSync(path.join(FIXTURE, name), 'utf8');
const setMode = (mode) => vscode.commands.executeCommand('loomTest.setMode', mode);
const requests = async () => vscode.commands.executeCommand('loomTest.requests');
const run = (dir, mode = 'autopilot') => vscode.commands.executeCommand('loom.runPipeline', { specDir: dir, mode });
const approve = (dir) => vscode.commands.executeCommand('loom.approve', { specDir: dir, confirm: true });
const stageOf = (dir) => readJson(path.join(dir, 'pipeline.state.json')).current_stage;
const WINDOW = Number(process.env.LOOM_TEST_WINDOW || '1');
/** A test of the first window (before the reload) or of the second (after it). */
const before = (title, fn) => (WINDOW === 1 ? test(title, fn) : undefined);
const after = (title, fn) => (WINDOW === 2 ? test(title, fn) : undefined);
/** The feature's spec directory, found again by the second window. */
const featureDir = () => {
  const found = fs.readdirSync(path.join(WS, 'specs')).find((n) => n.endsWith('+csv-export'));
  return found && path.join(WS, 'specs', found);
};

function git(...args) {
  const { spawnSync } = require('child_process');
  const r = spawnSync('git', ['-c', 'user.name=Loom Test', '-c', 'user.email=test@example.com', ...args], { cwd: WS, encoding: 'utf8' });
  assert.strictEqual(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** Every file under `dir`, relative, for "nothing half-written". */
function filesUnder(dir) {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).flatMap((d) => (d.isFile() ? [path.relative(dir, path.join(d.parentPath ?? d.path, d.name))] : []));
}

/** The spec directory holds no temporary file, and each of its JSON files parses. */
function wholeFiles(dir) {
  const files = filesUnder(dir);
  assert.deepStrictEqual(
    files.filter((f) => /\.tmp|~$|\.loom-run\.lock/.test(f)),
    [],
    files.join(', '),
  );
  for (const f of files.filter((f) => f.endsWith('.json'))) assert.doesNotThrow(() => readJson(path.join(dir, f)), f);
}

/** The run the spec's dashboard shows (its "Needs you"), from the last model the host posted to it. */
async function dashboardRun(api, dir, ready = () => true, timeout = 20000) {
  await vscode.commands.executeCommand('loom.openDashboard', { specDir: dir });
  const view = api.webviews.get('dashboard', dir);
  return waitFor(
    'the dashboard to show the run',
    () => {
      const shown = [...view.posted].reverse().find((m) => m.model && m.model.run)?.model.run;
      return shown && ready(shown) ? shown : undefined;
    },
    timeout,
  );
}

suite('End to end: Loom: Run Pipeline from New Feature to the review', () => {
  let api;
  let dir;

  suiteSetup(async () => {
    if (WINDOW === 1) {
      git('init', '-q', '-b', 'main');
      git('add', '-A');
      git('commit', '-qm', 'the sample todo API');
    }
    dir = featureDir();
    api = await loom();
    const config = vscode.workspace.getConfiguration('loom');
    await config.update('models.vendor', 'loom-test', vscode.ConfigurationTarget.Workspace);
    // The person's word in a quick pick (Supervised's Write), which a test can accept.
    await config.update('confirmation', 'quickPick', vscode.ConfigurationTarget.Workspace);
    await setMode('decided');
    await waitFor('the loom-test model', async () => (await vscode.lm.selectChatModels({ vendor: 'loom-test' })).length > 0, 20000);
  });

  before('New Feature "export todos as CSV", Autopilot drafts brainstorming and stops at its approval gate, saying why', async () => {
    const created = await vscode.commands.executeCommand('loom.newFeature', { name: 'csv-export' });
    assert.strictEqual(created.status, 'done', created.message);
    dir = created.specDir;
    await settle(api);
    const stop = await run(dir);
    assert.deepStrictEqual([stop.status, stop.outcome, stop.to], ['done', 'approval-gate', 'brainstorming'], stop.message);
    assert.match(stop.message, /human-approval gate: approve it to move on to detail-expansion/);
    assert.strictEqual(fs.readFileSync(path.join(dir, 'spec.md'), 'utf8'), fixture('spec.md'));
    assert.strictEqual(stageOf(dir), 'brainstorming', 'never a gate passed by itself');
    // The dashboard's "Needs you": the stop, its reason, and the one action that continues.
    const needsYou = await dashboardRun(api, dir);
    assert.deepStrictEqual([needsYou.running, needsYou.reason, needsYou.action], [false, 'approval-gate', 'Approve and Continue']);
    assert.strictEqual(needsYou.message, stop.message);
    wholeFiles(dir);
  });

  before('approved, it drafts detail-expansion, stops for the approval its requirements.json made stale, then plans and stops at planning’s gate', async () => {
    assert.strictEqual((await approve(dir)).status, 'done');
    const expanded = await run(dir);
    assert.deepStrictEqual([expanded.outcome, expanded.to], ['stale-approval', 'detail-expansion'], expanded.message);
    assert.match(expanded.message, /approval of brainstorming is stale: requirements\.json changed since/);
    const needsYou = await dashboardRun(api, dir);
    assert.deepStrictEqual([needsYou.reason, needsYou.action], ['stale-approval', 'Approve Again and Continue']);
    assert.strictEqual((await vscode.commands.executeCommand('loom.reapprove', { specDir: dir, confirm: true })).status, 'done');
    const stop = await run(dir);
    assert.deepStrictEqual([stop.outcome, stop.to], ['approval-gate', 'planning'], stop.message);
    assert.strictEqual(fs.readFileSync(path.join(dir, 'requirements.json'), 'utf8'), fixture('requirements.expanded.json'));
    assert.strictEqual(fs.readFileSync(path.join(dir, 'plan.md'), 'utf8'), fixture('plan.md'));
    assert.strictEqual(fs.readFileSync(path.join(dir, 'tasks', 'T1.md'), 'utf8'), fixture('tasks/T1.md'));
    assert.strictEqual(readJson(path.join(dir, 'handoffs', 'planning.json')).status, 'done');
    const drafted = (await requests()).filter((r) => r.role === 'author').map((r) => r.command);
    assert.deepStrictEqual(drafted, ['brainstorm', 'expand', 'plan']);
    wholeFiles(dir);
  });

  before('Stop Pipeline ends a run at once, with nothing half-written; the stage’s transcript says so', async () => {
    const created = await vscode.commands.executeCommand('loom.newFeature', { name: 'csv-stop' });
    const other = created.specDir;
    await settle(api);
    const contents = () =>
      new Map(
        filesUnder(other)
          .filter((f) => !f.startsWith('transcripts/'))
          .map((f) => [f, fs.readFileSync(path.join(other, f), 'utf8')]),
      );
    const before = contents();
    await setMode('hang-drafting');
    try {
      const asked = (await requests()).length;
      const running = run(other);
      await waitFor('the drafting request', async () => (await requests()).length > asked, 20000);
      const began = Date.now();
      const stopped = await vscode.commands.executeCommand('loom.stopPipeline', { specDir: other });
      assert.strictEqual(stopped.status, 'done', stopped.message);
      const stop = await running;
      assert.ok(Date.now() - began < 5000, `stopped after ${Date.now() - began} ms`);
      assert.deepStrictEqual([stop.outcome, stop.to], ['stopped', 'brainstorming'], stop.message);
    } finally {
      await setMode('decided');
    }
    assert.strictEqual(stageOf(other), 'brainstorming', 'the stage did not move');
    wholeFiles(other);
    assert.deepStrictEqual(contents(), before);
    assert.match(fs.readFileSync(path.join(other, 'transcripts', 'run-brainstorming.md'), 'utf8'), /Stopped at brainstorming: nothing half-written/);
  });

  before('Supervised shows the drafts and waits for Write before writing', async () => {
    const created = await vscode.commands.executeCommand('loom.newFeature', { name: 'csv-supervised' });
    const other = created.specDir;
    await settle(api);
    const spec = path.join(other, 'spec.md');
    const before = fs.readFileSync(spec, 'utf8');
    const running = run(other, 'supervised');
    const shown = await waitFor('the drafts shown', () => vscode.workspace.textDocuments.find((d) => d.isUntitled && d.getText().startsWith('<!-- spec.md -->')), 30000);
    assert.ok(shown.getText().includes('# Export todos as CSV'));
    await new Promise((r) => setTimeout(r, 1000));
    assert.strictEqual(fs.readFileSync(spec, 'utf8'), before, 'nothing written before Write');
    const stop = await confirmInQuickPick(() => running);
    assert.deepStrictEqual([stop.outcome, stop.to], ['approval-gate', 'brainstorming'], stop.message);
    assert.strictEqual(fs.readFileSync(spec, 'utf8'), fixture('spec.md'));
  });
  before(
    'approved, a repository with uncommitted changes stops the run at git-worktree; committed, it passes analyze, makes the worktree and runs the subagents, when the window reloads',
    async () => {
      assert.strictEqual((await approve(dir)).status, 'done');
      // The settings this suite wrote are not committed: the worktree would lack them, and the run says so.
      const dirty = await run(dir);
      assert.deepStrictEqual([dirty.outcome, dirty.to], ['refused', 'git-worktree'], dirty.message);
      assert.match(dirty.message, /uncommitted changes \(\.vscode\/settings\.json\); commit or stash them first/);
      git('add', '-A');
      git('commit', '-qm', 'csv-export: spec, plan and settings');
      // The implementer does not answer: the window goes away (a reload) with the run in the middle of T1.
      await setMode('hang');
      void run(dir);
      await waitFor('the implementer of T1 at work', async () => (await requests()).some((r) => r.role === 'implementer' && r.task === 'T1'), 120000);
      assert.strictEqual(stageOf(dir), 'executing');
      assert.ok(readJson(path.join(dir, 'pipeline.state.json')).metadata.worktree_path);
    },
  );

  after('the reloaded window resumes the run in executing: the subagents finish T1, it converges, verifies for real, requests the review and stops at the review gate', async () => {
    assert.ok(dir, 'the feature of the first window');
    assert.strictEqual(stageOf(dir), 'executing');
    // Resumed at activation: nothing to start here, the run goes on by itself and stops where a person decides.
    const needsYou = await dashboardRun(api, dir, (r) => !r.running, 170000);
    assert.deepStrictEqual([needsYou.reason, needsYou.stage, needsYou.action], ['review-gate', 'review-gate', 'Open review-feedback.md'], needsYou.message);
    assert.strictEqual(stageOf(dir), 'review-gate');
    assert.deepStrictEqual(
      needsYou.stages.map((s) => s.stage),
      ['executing', 'converge', 'verification', 'code-review-request', 'review-gate'],
    );
    // No stage whose handoff was fresh was drafted again: this window's model drafted the review request only.
    assert.deepStrictEqual(
      (await requests()).filter((r) => r.role === 'author').map((r) => r.command),
      ['review'],
    );
    const state = readJson(path.join(dir, 'pipeline.state.json'));
    const worktree = state.metadata.worktree_path;
    assert.ok(worktree && fs.existsSync(path.join(worktree, 'src', 'csv.js')), `the implementer wrote src/csv.js in ${worktree}`);
    assert.strictEqual(readJson(path.join(dir, 'task-states', 'T1.state.json')).status, 'done');
    const roles = new Set((await requests()).map((r) => r.role));
    assert.ok(roles.has('implementer') && roles.has('reviewer'), [...roles].join(', '));
    assert.match(fs.readFileSync(path.join(dir, 'test-report.md'), 'utf8'), /verdict: PASS/);
    const verify = fs.readFileSync(path.join(dir, 'verify-report.md'), 'utf8');
    assert.match(verify, /verdict: PASS/);
    assert.match(verify, /evidence-exit-code: 0/);
    assert.strictEqual(readJson(path.join(dir, 'handoffs', 'verification.json')).status, 'done');
    assert.ok(fs.existsSync(path.join(dir, 'review-request.md')));
    // Each stage's transcript is kept beside the spec's files, and the dashboard links to it.
    const verified = fs.readFileSync(path.join(dir, 'transcripts', 'run-verification.md'), 'utf8');
    assert.match(verified, /^# Pipeline run: verification$/m);
    assert.match(verified, /Verification PASS; wrote verify-report\.md/);
    assert.match(fs.readFileSync(path.join(dir, 'transcripts', 'run-code-review-request.md'), 'utf8'), /- Estimated tokens: [1-9]\d*/);
    assert.ok(
      needsYou.stages.some((s) => /\/transcripts\/run-executing\.md$/.test(s.file ?? '')),
      JSON.stringify(needsYou.stages.map((s) => s.file)),
    );
    wholeFiles(dir);
  });

  after(
    'a review with one BLOCKER: the review gate does not pass it; the run fixes it in fix mode, answers it in review-response.md and stops at the gate for the reviewer’s new verdict',
    async () => {
      fs.writeFileSync(path.join(dir, 'review-feedback.md'), fixture('review-feedback.md'));
      await settle(api);
      // loom 3 approves the review gate only on feedback that says PASS with no BLOCKER (pipeline-engine.js checkReviewFeedbackApproval).
      const refused = await approve(dir);
      assert.strictEqual(refused.status, 'refused', refused.message);
      assert.match([refused.message, ...refused.reasons].join('; '), /BLOCKER/);
      assert.strictEqual(stageOf(dir), 'review-gate');
      const asked = (await requests()).filter((r) => r.role === 'implementer').length;
      const stop = await run(dir);
      // As loom's receiving-code-review between rounds: T1 back to its implementer in fix mode, the tests re-run, the gate left shut.
      assert.deepStrictEqual([stop.outcome, stop.to], ['review-gate', 'review-gate'], stop.message);
      assert.match(stop.message, /Loom fixed 1 point\(s\) of the review and re-ran the tests \(review-response\.md\); the reviewer’s new verdict in review-feedback\.md and your approval continue it/);
      assert.ok((await requests()).filter((r) => r.role === 'implementer').length > asked, 'the implementer fixed the BLOCKER');
      const worktree = readJson(path.join(dir, 'pipeline.state.json')).metadata.worktree_path;
      assert.match(fs.readFileSync(path.join(worktree, 'src', 'csv.js'), 'utf8'), /t\.done \?\? false/);
      const response = fs.readFileSync(path.join(dir, 'review-response.md'), 'utf8');
      assert.match(response, /a `done` of undefined is written as the text "undefined"; write it as false\. \| fixed by T1 in fix mode/);
      assert.match(response, /Answered at the review gate \(review-gate\)/);
      assert.strictEqual(fs.existsSync(path.join(dir, 'handoffs', 'code-review-response.json')), false, 'the gate is not passed');
      assert.strictEqual(stageOf(dir), 'review-gate');
      // Run again on the same feedback: nothing is fixed twice; the run says what keeps the gate shut.
      const again = await run(dir);
      assert.deepStrictEqual([again.outcome, again.to], ['review-gate', 'review-gate'], again.message);
      assert.match(again.message, /the review feedback does not pass yet \(.*BLOCKER.*\)/);
      wholeFiles(dir);
    },
  );

  after('the reviewer’s second round says PASS: approved at the gate, the run answers the review, listing the BLOCKER fixed at the gate, re-runs the tests and reaches synced', async () => {
    fs.writeFileSync(path.join(dir, 'review-feedback.md'), fixture('review-feedback.pass.md'));
    await settle(api);
    const approved = await approve(dir);
    assert.strictEqual(approved.status, 'done', approved.message);
    assert.strictEqual(stageOf(dir), 'code-review-response');
    const asked = (await requests()).filter((r) => r.role === 'implementer').length;
    const stop = await run(dir);
    // Loom answers the review (the answerReview intent): the second round has no BLOCKER, so no fix round; the tests re-run as evidence.
    assert.deepStrictEqual([stop.outcome, stop.to], ['done', 'synced'], stop.message);
    assert.strictEqual((await requests()).filter((r) => r.role === 'implementer').length, asked, 'nothing more to fix');
    const response = fs.readFileSync(path.join(dir, 'review-response.md'), 'utf8');
    assert.match(response, /a `done` of undefined is written as the text "undefined"; write it as false\. \| fixed by T1 in fix mode[^|]*\(fixed at the review gate, [^)]+\) \|/);
    assert.match(response, /name the header columns once, as a constant\. \| not a BLOCKER/);
    assert.match(response, /evidence-exit-code: 0/);
    assert.match(response, /\nverdict: PASS\n$/);
    assert.strictEqual(readJson(path.join(dir, 'handoffs', 'code-review-response.json')).status, 'done');
    assert.strictEqual(stageOf(dir), 'synced');
    wholeFiles(dir);
  });
});
