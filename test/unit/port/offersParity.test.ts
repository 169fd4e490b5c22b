import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildDashboardModel } from '../../../src/core/views/dashboardModel';
import { reviewFixesToAnswer, specOffers } from '../../../src/core/port/offers';
import { request } from '../../../src/core/port/request';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { state, TempRepo } from '../../helpers/tempRepo';
import { specContext, stageRowContext } from '../../../src/host/tree/specContext';
import { respondAnswersReview } from '../../../src/host/chat/respondRoute';
import { nextStepActions } from '../../../webview-ui/dashboard/nextStepActions';
import { assertBuilt, BIN, connect, PROJECT } from '../mcp/helpers';

/**
 * One rule each, in the actor (issue 45, item 4): the same specs through every surface a unit test
 * reaches (the port, the CLI, the MCP server over the SDK's client, the dashboard's model, what the
 * tree's menus and `@loom` read) agree on what Advance does at a human-approval gate and on where
 * Answer Review applies. The workflow is the sample's, whose brainstorming and review-gate are
 * human-approval gates, as loom's own: loom's run --advance refuses there ("Use: loom run
 * --approve", PipelineEngine.advance).
 */

const SPEC_MD = '# Parity\n\nOne answer on every surface.\n\n## Requirements\n\n- REQ-001: one answer\n';
const REQUIREMENTS = {
  requirements: [
    {
      id: 'REQ-001',
      status: 'in_progress',
      types: ['functional'],
      required_categories: ['happy-path'],
      acceptance: ['one answer'],
      behaviors: [{ id: 'REQ-001-B01', category: 'happy-path', description: 'one answer', status: 'in_progress', acceptance: ['it is'] }],
    },
  ],
};
const BLOCKER = '# Review feedback\n\n- BLOCKER: greet() must reject an empty name\n\nverdict: FAIL\n';
const PASS = '# Review feedback\n\nNothing blocks.\n\nverdict: PASS\n';
/** The task a BLOCKER goes back to (the last one, when the feedback names no file). */
const TASK = '---\nid: T1\nowns: [src/greet.js]\n---\n# T1: greet\n';

interface Case {
  name: string;
  stage: string;
  files?: Record<string, string | object>;
  metadata?: Record<string, unknown>;
  /** The first code of Advance's refusal on every surface, or `asks` where the person's word is all that is missing. */
  advance: string;
  offers: { advance: boolean; approve: boolean; answerReview: boolean; createWorktree: boolean };
  /** `@loom /respond` sends the review's fixes to the implementer (Answer Review) rather than drafting the response. */
  respond?: boolean;
}

let repo: TempRepo;
const CASES: Case[] = [
  {
    name: 'gate-ready',
    stage: 'brainstorming',
    advance: 'human-approval-gate',
    offers: { advance: false, approve: true, answerReview: false, createWorktree: false },
  },
  {
    name: 'review-gate-blocker',
    stage: 'review-gate',
    files: { 'review-request.md': '# Review request\n\nPlease review.\n', 'review-feedback.md': BLOCKER },
    metadata: { worktree_path: 'wt' },
    advance: 'human-approval-gate',
    offers: { advance: false, approve: true, answerReview: true, createWorktree: false },
    respond: true,
  },
  {
    name: 'review-gate-answered',
    stage: 'review-gate',
    files: {
      'review-request.md': '# Review request\n\nPlease review.\n',
      'review-feedback.md': BLOCKER,
      // A round answered this very feedback: its BLOCKER is not sent back again.
      'review-answers.json': () => ({
        version: 1,
        rounds: [
          {
            feedback_sha256: repo.sha256('specs/2026-12-01+parity-review-gate-answered/review-feedback.md'),
            threads: [],
            answered_at: '2026-12-01T10:00:00.000Z',
            writer: 'Loom: Answer Review',
            points: [],
          },
        ],
      }),
    },
    metadata: { worktree_path: 'wt' },
    advance: 'human-approval-gate',
    offers: { advance: false, approve: true, answerReview: false, createWorktree: false },
  },
  {
    name: 'review-gate-pass',
    stage: 'review-gate',
    files: { 'review-request.md': '# Review request\n\nPlease review.\n', 'review-feedback.md': PASS },
    metadata: { worktree_path: 'wt' },
    advance: 'human-approval-gate',
    offers: { advance: false, approve: true, answerReview: false, createWorktree: false },
  },
  {
    name: 'executing-no-worktree',
    stage: 'executing',
    advance: 'transition-refused',
    // executing is a stage a person confirms (the schema's interactive): Approve is its way too.
    offers: { advance: true, approve: true, answerReview: false, createWorktree: true },
  },
  {
    // No metadata key: the actor finds the worktree as git lists it (a worktree on the feature branch).
    name: 'executing-git-worktree',
    stage: 'executing',
    advance: 'transition-refused',
    offers: { advance: true, approve: true, answerReview: false, createWorktree: false },
  },
  {
    name: 'git-worktree-stage',
    stage: 'git-worktree',
    advance: 'transition-refused',
    offers: { advance: true, approve: false, answerReview: false, createWorktree: true },
  },
  {
    name: 'failed',
    stage: 'failed',
    advance: 'spec-failed',
    offers: { advance: false, approve: false, answerReview: false, createWorktree: false },
  },
];

/** Cases for the offers alone (Advance's refusal code there is not the point): Answer Review where the review is answered. */
const OFFER_CASES: Case[] = [
  ...CASES,
  {
    name: 'response-blocker',
    stage: 'code-review-response',
    files: { 'review-request.md': '# Review request\n\nPlease review.\n', 'review-feedback.md': BLOCKER },
    metadata: { worktree_path: 'wt' },
    advance: '-',
    // code-review-response is a stage a person confirms: Approve is its way too.
    offers: { advance: true, approve: true, answerReview: true, createWorktree: false },
    respond: true,
  },
  {
    // Nothing to fix and not answered yet: Answer Review re-runs the tests and writes the response; @loom drafts no fix round.
    name: 'response-pass',
    stage: 'code-review-response',
    files: { 'review-request.md': '# Review request\n\nPlease review.\n', 'review-feedback.md': PASS },
    metadata: { worktree_path: 'wt' },
    advance: '-',
    offers: { advance: true, approve: true, answerReview: true, createWorktree: false },
  },
];

const specDir = (c: Case) => `specs/2026-12-01+parity-${c.name}`;

/** The `:`-separated parts of a tree item's context value after its kind. */
const parts = (context: string) => new Set(context.split(':').slice(1));
const NOT_STALE = { handoffs: [], approvals: [], derived: [] };

function writeCase(c: Case): void {
  const dir = specDir(c);
  repo.write(`${dir}/spec.md`, SPEC_MD);
  repo.write(`${dir}/requirements.json`, REQUIREMENTS);
  repo.write(`${dir}/tasks/T1.md`, TASK);
  for (const [file, content] of Object.entries(c.files ?? {})) repo.write(`${dir}/${file}`, typeof content === 'function' ? (content as () => object)() : content);
  const extra = c.stage === 'failed' ? { failure_reason: 'scope changed', stage_history: [{ stage: 'brainstorming', status: 'failed', reason: 'scope changed' }] } : {};
  const s = { ...state(c.stage), spec_dir: dir, ...extra, metadata: { ...(c.metadata ?? {}) } };
  repo.write(`${dir}/pipeline.state.json`, s);
}

function cli(...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args, '--cwd', repo.root, '--lang', 'en'], { env: { ...process.env, XDG_CACHE_HOME: join(repo.root, '.cache') } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

const load = (c: Case) => new LoomRepository(repo.root).load().get(specDir(c))!;

describe('one rule each: every surface agrees on the gate and on Answer Review', () => {
  before(() => {
    assertBuilt();
    repo = new TempRepo('loom-offers-parity-');
    cpSync(join(PROJECT, 'sample/.loom/workflow.yaml'), repo.path('.loom/workflow.yaml'));
    mkdirSync(repo.path('wt'), { recursive: true });
    // The feature branch's worktree as git records it (.git/worktrees/<name>/HEAD and gitdir).
    mkdirSync(repo.path('wt-git'), { recursive: true });
    repo.write('.git/worktrees/parity/HEAD', 'ref: refs/heads/feature/2026-12-01-parity-executing-git-worktree\n');
    repo.write('.git/worktrees/parity/gitdir', `${repo.path('wt-git/.git')}\n`);
    for (const c of OFFER_CASES) writeCase(c);
  });
  after(() => repo?.dispose());

  it('Advance: the actor, the CLI (with --confirm) and the MCP server give the same answer; a human-approval gate is refused on each, with Approve as the way', async () => {
    const mcp = await connect(repo.root);
    try {
      for (const c of CASES) {
        const before = readFileSync(repo.path(`${specDir(c)}/pipeline.state.json`), 'utf8');
        const port = await request(load(c), { type: 'advance', compressionConfirmed: true }, { confirm: true });
        assert.equal(port.kind, 'refused', `${c.name}: the actor`);
        if (port.kind !== 'refused') continue;
        assert.equal(port.code, c.advance, `${c.name}: the actor's code`);
        assert.equal(
          port.remedies.some((r) => r.kind === 'approve'),
          c.advance === 'human-approval-gate',
          `${c.name}: Approve offered as the remedy`,
        );

        const viaCli = await cli('advance', '--spec-dir', specDir(c), '--confirm', '--compression-confirmed', '--json');
        assert.equal(viaCli.code, 1, `${c.name}: the CLI refuses`);
        const doc = JSON.parse(viaCli.out);
        // `codes` leaves out the generic transition-refused, which is then `code`.
        assert.equal(doc.codes[0] ?? doc.code, c.advance, `${c.name}: the CLI's code`);
        if (c.advance === 'human-approval-gate') assert.match(doc.hint, /loom-vscode approve --spec-dir/, `${c.name}: the CLI's hint`);

        const viaMcp = await mcp.call('loom_advance_pipeline', { spec_dir: specDir(c), compression_confirmed: true });
        assert.notEqual(viaMcp.ok, true, `${c.name}: MCP refuses`);
        assert.equal(viaMcp.codes[0], c.advance, `${c.name}: MCP's code`);
        if (c.advance === 'human-approval-gate') {
          assert.equal(viaMcp.code, 'human-approval-gate');
          assert.match(viaMcp.hint, /loom_approve_gate/);
        }
        assert.equal(readFileSync(repo.path(`${specDir(c)}/pipeline.state.json`), 'utf8'), before, `${c.name}: nothing written`);
      }
    } finally {
      await mcp.close();
    }
  });

  it('what a spec offers: the core, the dashboard model, the webview, the tree and @loom render one derivation', () => {
    for (const c of OFFER_CASES) {
      const spec = load(c);
      const offers = specOffers(spec);
      assert.deepEqual({ advance: offers.advance, approve: offers.approve, answerReview: offers.answerReview, createWorktree: offers.createWorktree }, c.offers, `${c.name}: the core's offers`);

      const actions = buildDashboardModel(spec).actions;
      assert.equal(actions.advance, c.offers.advance, `${c.name}: the dashboard's Advance`);
      assert.equal(actions.approve, c.offers.approve, `${c.name}: the dashboard's Approve`);
      assert.equal(actions.answerReview === true, c.offers.answerReview, `${c.name}: the dashboard's Answer Review`);

      // The webview's buttons, from the model the host posts it.
      const buttons = new Set(nextStepActions(buildDashboardModel(spec)).map((b) => b.command.command));
      assert.equal(buttons.has('advance'), c.offers.advance, `${c.name}: the webview's Advance`);
      assert.equal(buttons.has('approve'), c.offers.approve, `${c.name}: the webview's Approve`);
      assert.equal(buttons.has('answerReview'), c.offers.answerReview, `${c.name}: the webview's Answer Review`);

      // The tree: the spec row's menus and the current stage row's.
      const entry = { spec, staleness: NOT_STALE, overview: { group: 'in-progress' as const } };
      const row = parts(specContext(entry));
      assert.equal(row.has('approve'), c.offers.approve, `${c.name}: the tree's Approve`);
      assert.equal(!row.has('noAdvance'), c.offers.advance, `${c.name}: the tree's Advance`);
      assert.equal(row.has('worktree'), c.offers.createWorktree, `${c.name}: the tree's Create Worktree`);
      assert.equal(row.has('reviewGate') || row.has('reviewResponse'), c.offers.answerReview, `${c.name}: the tree's Answer Review`);
      if (spec.stage !== 'failed') {
        const stageRow = parts(stageRowContext(entry, { status: 'running', current: true }, false));
        assert.equal(stageRow.has('approve'), c.offers.approve, `${c.name}: the stage row's Approve`);
        assert.equal(!stageRow.has('noAdvance'), c.offers.advance, `${c.name}: the stage row's Advance`);
      }

      // @loom's /respond and Run Pipeline at the review gate send the fixes where the actor would run the fix round.
      assert.equal(respondAnswersReview(spec), c.respond === true, `${c.name}: @loom /respond`);
      assert.equal(reviewFixesToAnswer(spec.definition, spec.snapshot, spec.stage), c.respond === true, `${c.name}: Run Pipeline`);
    }
  });

  it('Approve passes the gate the actor refused to Advance, on the CLI (loom run --approve) and over MCP', async () => {
    const gate = CASES[0];
    const copies = ['cli', 'mcp'].map((s) => {
      const dir = `${specDir(gate)}-${s}`;
      cpSync(repo.path(specDir(gate)), repo.path(dir), { recursive: true });
      return dir;
    });
    const viaCli = await cli('approve', '--spec-dir', copies[0], '--compression-confirmed', '--json');
    assert.equal(viaCli.code, 0, viaCli.err);
    assert.deepEqual(JSON.parse(viaCli.out), { spec_dir: copies[0], from: 'brainstorming', to: 'detail-expansion' });
    const mcp = await connect(repo.root);
    try {
      const r = await mcp.call('loom_approve_gate', { spec_dir: copies[1], compression_confirmed: true });
      assert.equal(r.ok, true, JSON.stringify(r));
      assert.deepEqual([r.from, r.to], ['brainstorming', 'detail-expansion']);
    } finally {
      await mcp.close();
    }
  });
});
