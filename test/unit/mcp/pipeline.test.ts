/**
 * Stage changes over MCP go through the spec's actor (SpecPipeline), with loom's refusals
 * (loom 3 tools.js loom_advance_pipeline / loom_approve_gate over PipelineEngine.advance and
 * approve) and a person in charge: an interactive stage or an approval gate moves only with the
 * user's word, asked through elicitation when the client can, else refused with how to confirm.
 * The files written are read back by the CLI.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PipelineStateSchema } from '../../../src/core/files/pipelineState';
import { TempRepo } from '../../helpers/tempRepo';
import { assertBuilt, BAD_STATE, BUILD, cliStatus, connect, DRAFT, GATE, IDEA, pipelineRepo, type LoomClient, serveFixture } from './helpers';

const lastEntry = (repo: TempRepo, specDir: string) =>
  PipelineStateSchema()
    .parse(repo.json(`${specDir}/pipeline.state.json`))
    .stage_history.at(-1)!;

describe('loom-vscode mcp: stage changes without elicitation', () => {
  let repo: TempRepo;
  let c: LoomClient;
  serveFixture((r, client) => ((repo = r), (c = client)));

  it('advances a stage that needs no person, recording that it came over MCP', async () => {
    const r = await c.call('loom_advance_pipeline', { spec_dir: DRAFT });
    assert.equal(r.ok, true);
    assert.equal(r.from, 'draft');
    assert.equal(r.to, 'review');
    assert.equal(cliStatus(repo.root, DRAFT).stage, 'review');
    assert.equal(lastEntry(repo, DRAFT).reason, 'via MCP: loom_advance_pipeline');
  });

  it('refuses to advance a human-approval gate: use approve, after the user agreed', async () => {
    const before = repo.sha256(`${GATE}/pipeline.state.json`);
    const r = await c.call('loom_advance_pipeline', { spec_dir: GATE });
    // The actor's refusal (Advance never passes a human-approval gate), with this server's hint to approve.
    assert.equal(r.code, 'human-approval-gate');
    assert.match(r.error, /is at review, a human-approval gate: Advance does not pass it/);
    assert.match(r.hint, /loom_approve_gate/);
    assert.match(r.hint, /Loom: Approve in VS Code/);
    assert.match(r.hint, new RegExp(`loom-vscode approve --spec-dir ${GATE.replace('+', '\\+')}`));
    assert.equal(repo.sha256(`${GATE}/pipeline.state.json`), before);
  });

  it('refuses to leave an interactive stage until the user confirms, and says how', async () => {
    const before = repo.sha256(`${IDEA}/pipeline.state.json`);
    const r = await c.call('loom_advance_pipeline', { spec_dir: IDEA });
    assert.match(r.error, /leaving brainstorming needs the user's confirmation; nothing was changed/);
    assert.equal(r.needs_confirmation, true);
    assert.ok(r.confirmations.length > 0);
    assert.match(r.hint, /loom_approve_gate/);
    assert.equal(repo.sha256(`${IDEA}/pipeline.state.json`), before);
    assert.equal(cliStatus(repo.root, IDEA).stage, 'brainstorming');
  });

  it('approves a gate on the agent’s report that the user agreed, and says so in the history', async () => {
    const r = await c.call('loom_approve_gate', { spec_dir: GATE });
    assert.equal(r.ok, true);
    assert.deepEqual([r.from, r.to], ['review', 'build']);
    assert.equal(r.confirmed_by, 'the agent, reporting the user’s agreement');
    const entry = lastEntry(repo, GATE);
    assert.equal(entry.reason, "via MCP: loom_approve_gate, after the agent reported the user's agreement");
    assert.ok(entry.approval_fingerprints, 'a human-approval gate records its fingerprints');
    assert.equal(cliStatus(repo.root, GATE).stage, 'build');
  });

  it('refuses to approve where there is no gate', async () => {
    const r = await c.call('loom_approve_gate', { spec_dir: BUILD });
    assert.match(r.error, /has no gate to approve at build: use loom_advance_pipeline/);
  });

  it('refuses a gate whose outputs are missing before asking anyone', async () => {
    await c.call('loom_advance_pipeline', { spec_dir: DRAFT }); // at review already: refused, unchanged
    const r = await c.call('loom_approve_gate', { spec_dir: DRAFT });
    assert.match(r.error, /cannot pass review yet/);
    assert.ok(r.reasons.some((x: string) => x.includes('plan.md')));
    assert.equal(cliStatus(repo.root, DRAFT).stage, 'review');
  });

  it('reports a corrupt pipeline.state.json by name and leaves it as it was', async () => {
    const before = repo.sha256(`${BAD_STATE}/pipeline.state.json`);
    for (const tool of ['loom_advance_pipeline', 'loom_approve_gate', 'loom_get_pipeline_context', 'loom_check_stage']) {
      const r = await c.call(tool, { spec_dir: BAD_STATE });
      assert.match(r.error, new RegExp(`${BAD_STATE.replace('+', '\\+')}/pipeline.state.json is corrupt`), tool);
      assert.equal(r.file, `${BAD_STATE}/pipeline.state.json`);
    }
    assert.equal(repo.sha256(`${BAD_STATE}/pipeline.state.json`), before);
  });

  it('needs a spec_dir or an attached spec; attaching binds later calls', async () => {
    const none = await c.call('loom_get_pipeline_context');
    assert.match(none.error, /^No spec_dir\. Call loom_attach_spec first or pass spec_dir\./);
    const attached = await c.call('loom_attach_spec', { spec_dir: BUILD });
    assert.deepEqual([attached.ok, attached.attached, attached.current_stage], [true, BUILD, 'build']);
    const ctx = await c.call('loom_get_pipeline_context');
    assert.equal(ctx.spec_dir, BUILD);
    assert.equal(ctx.current_stage, 'build');
    assert.equal(ctx.next_stage, 'ship');
    assert.equal(ctx.is_gate, false);
    assert.deepEqual(ctx.tasks_summary, { total: 3, pending: 3 });
    for (const key of ['pipeline_type', 'current_skill', 'current_step', 'next_step', 'handoffs_summary', 'recommended_reads', 'constraints', 'forbidden_actions']) assert.ok(key in ctx, key);
    assert.deepEqual(Object.keys(ctx.constraints), ['must_produce', 'must_not_skip', 'requires_files']);
  });

  it('refuses a spec_dir that is not a spec', async () => {
    const r = await c.call('loom_get_pipeline_context', { spec_dir: 'src' });
    assert.match(r.error, /"src" is not a spec directory/);
  });

  it('reports every spec with its stage, with loom’s counts', async () => {
    const all = await c.call('loom_get_project_status');
    assert.equal(all.total_pipelines, 5);
    assert.equal(all.returned_pipelines, 5);
    assert.equal(all.truncated, false);
    // The truncated state file is told by default (issue 37): its row says why its stage is null.
    assert.deepEqual(all.health_issues, [
      `${BAD_STATE}/pipeline.state.json is not valid JSON: expected a string but found end of file (line 2); fix or restore it`,
      `${BAD_STATE}: its stage is unknown until pipeline.state.json can be read; nothing is changed on it`,
    ]);
    const bad = all.pipelines.find((p: { spec_dir: string }) => p.spec_dir === BAD_STATE);
    assert.equal(bad.stage, null);
    assert.deepEqual(
      bad.file_problems.map((p: { file: string; line: number }) => [p.file, p.line]),
      [[`${BAD_STATE}/pipeline.state.json`, 2]],
    );
    assert.equal(all.pipelines.find((p: { spec_dir: string }) => p.spec_dir === BUILD).file_problems, undefined, 'a readable spec has no such key');
    const two = await c.call('loom_get_project_status', { limit: 2 });
    assert.deepEqual([two.returned_pipelines, two.truncated, two.omitted_pipelines], [2, true, 3]);
    const row = all.pipelines.find((p: { spec_dir: string }) => p.spec_dir === BUILD);
    assert.deepEqual([row.stage, row.tasks_total], ['build', 3]);
    const full = await c.call('loom_get_project_status', { detail: 'full' });
    assert.ok(full.pipelines.every((p: { next: unknown }) => Array.isArray(p.next)));
  });
});

describe('loom-vscode mcp: loom_get_project_status reads what its answer needs', () => {
  let repo: TempRepo;
  let c: LoomClient;
  serveFixture((r, client) => ((repo = r), (c = client)));

  it('a corrupt file no answer of it needs is not a file problem; detail "full" lists every file’s problems', async () => {
    // Cut off where nothing build's move reads it (build → ship checks no file): loom_validate's to report.
    repo.write(`${BUILD}/requirements.json`, '{\n  "requirements": [\n');
    const summary = await c.call('loom_get_project_status');
    const row = summary.pipelines.find((p: { spec_dir: string }) => p.spec_dir === BUILD);
    assert.deepEqual([row.stage, row.tasks_total, row.file_problems], ['build', 3, undefined]);
    assert.ok(!summary.health_issues.some((h: string) => h.includes('requirements.json')), JSON.stringify(summary.health_issues));
    const full = await c.call('loom_get_project_status', { detail: 'full' });
    const status = full.pipelines.find((p: { spec_dir: string }) => p.spec_dir === BUILD);
    assert.equal(status.stage, 'build');
    assert.deepEqual(
      status.diagnostics.map((d: { file: string; line: number; severity: string }) => [d.file, d.line, d.severity]),
      [[`${BUILD}/requirements.json`, 3, 'error']],
    );
    const validate = await c.call('loom_validate', { spec_dir: BUILD });
    assert.ok(JSON.stringify(validate).includes(`${BUILD}/requirements.json`), JSON.stringify(validate));
  });

  it('says in its description that every other file’s problems are loom_validate’s', async () => {
    await c.call('loom_load_tool_group', { group: 'pipeline' });
    const { tools } = await c.client.listTools();
    const tool = tools.find((t) => t.name === 'loom_get_project_status')!;
    assert.match(tool.description ?? '', /Reads only what that answer needs/);
    assert.match(tool.description ?? '', /loom_validate/);
  });
});

describe('loom-vscode mcp: the person confirms through elicitation', () => {
  let repo: TempRepo;
  let c: LoomClient;
  let reply: 'accept' | 'decline' = 'accept';
  serveFixture((r, client) => ((repo = r), (c = client)), { answer: () => (reply === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' }) });

  it('asks the user to leave an interactive stage, naming the stage, what it produced and what comes next', async () => {
    const r = await c.call('loom_advance_pipeline', { spec_dir: IDEA });
    assert.equal(r.ok, true);
    assert.deepEqual([r.from, r.to, r.confirmed_by], ['brainstorming', 'draft', 'the user, through the MCP client']);
    assert.equal(c.asked.length, 1);
    // The actor's question, worded once for every surface, after the server's word that an agent asks.
    assert.match(c.asked[0], new RegExp(`leave brainstorming of ${IDEA.replace('+', '\\+')}`));
    assert.match(c.asked[0], /\nLeave brainstorming of idea and move it to draft\?/);
    assert.match(c.asked[0], new RegExp(`${IDEA.replace('+', '\\+')}: brainstorming → draft`));
    assert.match(c.asked[0], /Outputs of brainstorming: spec\.md ✓, requirements\.json ✓/);
    assert.match(c.asked[0], /Next: draft/);
    assert.equal(lastEntry(repo, IDEA).reason, 'via MCP: loom_advance_pipeline, confirmed by the user through the MCP client');
    assert.equal(cliStatus(repo.root, IDEA).stage, 'draft');
  });

  it('approves a gate only when the user says yes', async () => {
    reply = 'decline';
    const before = repo.sha256(`${GATE}/pipeline.state.json`);
    const no = await c.call('loom_approve_gate', { spec_dir: GATE });
    assert.match(no.error, /the user did not approve review \(the user chose decline\); nothing was changed/);
    assert.equal(repo.sha256(`${GATE}/pipeline.state.json`), before);
    reply = 'accept';
    const yes = await c.call('loom_approve_gate', { spec_dir: GATE });
    assert.deepEqual([yes.ok, yes.from, yes.to], [true, 'review', 'build']);
    assert.match(c.asked.at(-1)!, /approve the gate of review/);
    assert.match(c.asked.at(-1)!, /Approve review of gate and move it to build\?/);
    assert.match(c.asked.at(-1)!, /Outputs of review: plan\.md ✓/);
    assert.equal(lastEntry(repo, GATE).reason, 'via MCP: loom_approve_gate, approved by the user through the MCP client');
  });

  it('asks no one for a stage that needs no person', async () => {
    const asked = c.asked.length;
    const r = await c.call('loom_advance_pipeline', { spec_dir: BUILD });
    assert.deepEqual([r.ok, r.to], [true, 'ship']);
    assert.equal(c.asked.length, asked);
  });
});

describe('loom-vscode mcp: every path stays inside the repository', () => {
  let repo: TempRepo;
  let outside: string;
  let c: LoomClient;
  before(async () => {
    assertBuilt();
    repo = pipelineRepo();
    outside = mkdtempSync(join(tmpdir(), 'loom-mcp-outside-'));
    mkdirSync(join(outside, 'handoffs'));
    writeFileSync(join(outside, 'pipeline.state.json'), '{}');
    symlinkSync(outside, repo.path('specs/2026-12-09+link'));
    c = await connect(repo.root);
  });
  after(async () => {
    await c.close();
    repo.dispose();
    rmSync(outside, { recursive: true, force: true });
  });

  const calls: [string, Record<string, unknown>][] = [
    ['loom_attach_spec', {}],
    ['loom_get_pipeline_context', {}],
    ['loom_advance_pipeline', {}],
    ['loom_approve_gate', {}],
    ['loom_update_task_state', { task_id: 'T1', status: 'done' }],
    ['loom_write_handoff', { stage: 'build', summary: 'x' }],
    ['loom_stage_checkpoint', { stage: 'build' }],
    ['loom_analyze_artifacts', {}],
    ['loom_converge', {}],
    ['loom_adjust_pipeline', { new_remaining_steps: [{ id: 'ship' }] }],
    ['loom_select_pipeline', { request: 'a typo', initialize: true }],
    ['loom_omission_hunt', {}],
    ['loom_check_stage', {}],
    ['loom_trace', {}],
    ['loom_tasks', {}],
    ['loom_validate', {}],
  ];

  for (const escape of ['../../etc', '/etc', 'specs/../../outside', 'specs/2026-12-09+link']) {
    it(`refuses spec_dir ${escape} in every tool, writing nothing`, async () => {
      for (const [tool, args] of calls) {
        const r = await c.call(tool, { ...args, spec_dir: escape });
        assert.match(r.error, /escapes the repository/, `${tool} ${escape}`);
        assert.match(r.hint, /inside the repository/);
        assert.equal(r.code, 'outside-repository');
      }
      assert.deepEqual(readdirSync(outside).sort(), ['handoffs', 'pipeline.state.json']);
      assert.deepEqual(readdirSync(join(outside, 'handoffs')), []);
    });
  }

  it('refuses a project_root other than the served repository', async () => {
    for (const tool of ['loom_list_capabilities', 'loom_get_project_status', 'loom_get_context', 'loom_get_memory', 'loom_add_memory', 'loom_attach_spec']) {
      const r = await c.call(tool, { project_root: outside, spec_dir: BUILD, doc: 'constitution', type: 'adr', content: 'x' });
      assert.match(r.error, /is not the repository this server serves/, tool);
      assert.equal(r.code, 'foreign-project-root', tool);
    }
    assert.equal(existsSync(join(outside, '.loom')), false);
  });

  it('refuses handoff artifacts outside the repository', async () => {
    const r = await c.call('loom_write_handoff', { spec_dir: BUILD, stage: 'build', artifacts: ['src/a.ts', '../../etc/passwd'] });
    assert.match(r.error, /artifact "..\/..\/etc\/passwd" escapes the repository/);
    assert.equal(existsSync(repo.path(`${BUILD}/handoffs/build.json`)), false);
  });
});

describe('loom-vscode mcp: adjusting the steps ahead', () => {
  let repo: TempRepo;
  let plain: LoomClient;
  let asking: LoomClient;
  let reply: 'accept' | 'decline' = 'accept';
  before(async () => {
    assertBuilt();
    repo = pipelineRepo();
    [plain, asking] = await Promise.all([connect(repo.root), connect(repo.root, { answer: () => (reply === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' }) })]);
  });
  after(async () => {
    await Promise.all([plain.close(), asking.close()]);
    repo.dispose();
  });

  it('replaces the steps ahead, keeping the stages entered and what the workflow says of them', async () => {
    const r = await plain.call('loom_adjust_pipeline', {
      spec_dir: DRAFT,
      new_remaining_steps: [{ id: 'review' }, { id: 'integration', description: 'cross-module checks' }, { id: 'build' }, { id: 'ship' }],
    });
    assert.equal(r.ok, true);
    assert.deepEqual(
      r.dynamic_steps.map((s: { id: string }) => s.id),
      ['draft', 'review', 'integration', 'build', 'ship'],
    );
    const state = repo.json(`${DRAFT}/pipeline.state.json`);
    assert.equal(state.current_stage, 'draft');
    assert.equal(state.dynamic_steps.find((s: { id: string }) => s.id === 'review').gate, 'human-approval');
    const status = cliStatus(repo.root, DRAFT);
    assert.deepEqual([status.stage, status.next[0].to], ['draft', 'review']);
  });

  it('refuses to leave out a gate on the agent’s word alone', async () => {
    const before = repo.sha256(`${DRAFT}/pipeline.state.json`);
    const r = await plain.call('loom_adjust_pipeline', { spec_dir: DRAFT, new_remaining_steps: [{ id: 'build' }, { id: 'ship' }] });
    assert.match(r.error, /leaving out review would skip a stage a person must pass; nothing was changed/);
    assert.deepEqual(r.dropped, ['review']);
    assert.equal(repo.sha256(`${DRAFT}/pipeline.state.json`), before);
  });

  it('lets the user decide through elicitation', async () => {
    reply = 'decline';
    const no = await asking.call('loom_adjust_pipeline', { spec_dir: DRAFT, new_remaining_steps: [{ id: 'build' }, { id: 'ship' }] });
    assert.match(no.error, /the user did not agree to change the steps/);
    assert.match(asking.asked.at(-1)!, /Left out: review, integration/);
    reply = 'accept';
    const yes = await asking.call('loom_adjust_pipeline', { spec_dir: DRAFT, new_remaining_steps: [{ id: 'build' }, { id: 'ship' }] });
    assert.deepEqual(
      yes.dynamic_steps.map((s: { id: string }) => s.id),
      ['draft', 'build', 'ship'],
    );
    assert.equal(cliStatus(repo.root, DRAFT).next[0].to, 'build');
  });

  it('refuses an empty list and a corrupt state file', async () => {
    assert.match((await plain.call('loom_adjust_pipeline', { spec_dir: DRAFT, new_remaining_steps: [] })).error, /invalid arguments/);
    assert.match((await plain.call('loom_adjust_pipeline', { spec_dir: BAD_STATE, new_remaining_steps: [{ id: 'ship' }] })).error, /pipeline\.state\.json is corrupt/);
  });
});

describe('loom-vscode mcp: choosing the steps for a request', () => {
  const NEW = 'specs/2026-12-06+new';
  let repo: TempRepo;
  let c: LoomClient;
  before(async () => {
    assertBuilt();
    repo = pipelineRepo();
    repo.write(`${NEW}/spec.md`, '# New\n');
    c = await connect(repo.root);
  });
  after(async () => {
    await c.close();
    repo.dispose();
  });

  it('proposes steps by risk, writing nothing', async () => {
    const low = await c.call('loom_select_pipeline', { request: 'fix a typo in the docs', spec_dir: NEW });
    assert.deepEqual(
      low.steps.map((s: { id: string }) => s.id),
      ['executing', 'verification'],
    );
    assert.deepEqual([low.risk, low.source, low.initialized], ['low', 'fallback:low-risk', false]);
    const high = await c.call('loom_select_pipeline', { request: 'refactor the auth architecture across modules' });
    assert.equal(high.risk, 'high');
    // 'auth' asks for detail expansion, as loom's OPTIONAL_SIGNALS say.
    assert.deepEqual(high.steps.slice(0, 3), [{ id: 'brainstorming' }, { id: 'detail-expansion' }, { id: 'planning' }]);
    assert.equal(high.signals.optional_triggers['detail-expansion'], true);
    assert.ok(high.steps.some((s: { id: string }) => s.id === 'approved'));
    assert.equal(existsSync(repo.path(`${NEW}/pipeline.state.json`)), false);
  });

  it('follows the workflow’s keyword rules first', async () => {
    repo.write(
      '.loom/workflow.yaml',
      `${readFileSync(repo.path('.loom/workflow.yaml'), 'utf8')}selection_rules:\n  short_circuits:\n    - { name: hotfix, match: { keywords_any: [hotfix] }, steps: [executing, verification] }\n`,
    );
    const r = await c.call('loom_select_pipeline', { request: 'Hotfix: refactor the login architecture' });
    assert.deepEqual([r.source, r.steps.length], ['short-circuit:hotfix', 2]);
  });

  it('starts a spec on the steps with initialize, once; a started spec is left as it is', async () => {
    assert.match((await c.call('loom_select_pipeline', { request: 'fix a typo', initialize: true })).error, /spec_dir is required when initialize=true/);
    const r = await c.call('loom_select_pipeline', { request: 'fix a typo in the docs', spec_dir: NEW, initialize: true });
    assert.equal(r.initialized, true);
    const state = PipelineStateSchema().parse(repo.json(`${NEW}/pipeline.state.json`));
    assert.deepEqual([state.current_stage, state.dynamic_steps], ['executing', [{ id: 'executing' }, { id: 'verification' }]]);
    assert.equal(cliStatus(repo.root, NEW).stage, 'executing');
    const before = repo.sha256(`${NEW}/pipeline.state.json`);
    const again = await c.call('loom_select_pipeline', { request: 'refactor everything', spec_dir: NEW, initialize: true });
    assert.match(again.error, /pipeline\.state\.json exists already, so it was not replaced/);
    assert.match(again.hint, /loom_adjust_pipeline/);
    assert.equal(repo.sha256(`${NEW}/pipeline.state.json`), before);
  });
});
