/**
 * `bench: pipeline-run ratio=<r> ms=<wall> stages=<n>`: the tokens Loom: Run Pipeline spends
 * drafting a feature's stages (brainstorming, detail-expansion, planning, then its runners up to
 * the worktree) over the tokens of the same stages done one by one through `@loom` (/brainstorm
 * with the feature's request, /expand, /plan, each written and advanced by hand), with the same
 * scripted model and the same replies. Tokens are counted on what is sent and what comes back,
 * with fixModeTokens' word-piece estimate. The run types no request (the stage prompts read the
 * spec's files; by hand, /brainstorm carries the feature's words, which New Feature puts in
 * spec.md). A run must not cost more than doing it by hand: the
 * target is a ratio of at most 1.0. `ms` is the run's wall time with the scripted model.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildAuthoringMessages, buildRepairMessage, loadAuthoringTemplates } from '../src/core/authoring/authoringPrompts';
import { checkDrafts } from '../src/core/authoring/draftCheck';
import { runDraftingTurn } from '../src/core/authoring/draftingTurn';
import { draftBase, writeDrafts } from '../src/core/authoring/draftWrite';
import { AUTHORING } from '../src/core/authoring/stageCommands';
import type { ChatMessage, ChatModel, ChatRequestOptions, ChatResponsePart } from '../src/core/executing/dispatch/chatModel';
import type { Refused } from '../src/core/port/answer';
import { request } from '../src/core/port/request';
import { runPipeline } from '../src/core/pipelineRun/pipelineRun';
import { createSpec } from '../src/core/repository/createSpec';
import { LoomRepository } from '../src/core/repository/loomRepository';
import { estimateTokens } from './fixModeTokens';

const FIXTURES = resolve(__dirname, '../test/fixtures/authoring');
const REQUEST = 'export todos as CSV';
const file = (path: string, name = path) => `=== FILE: ${path} ===\n${readFileSync(join(FIXTURES, name), 'utf8')}=== END FILE ===\n`;
/** The model's reply to each drafting command: the fixture's files, as a model writes them. */
const REPLIES: Record<string, string> = {
  brainstorm: `Here is the spec.\n\n${file('spec.md')}${file('requirements.json', 'requirements.brainstorm.json')}`,
  expand: `The behaviors, expanded.\n\n${file('requirements.json', 'requirements.expanded.json')}`,
  plan: `The plan.\n\n${file('plan.md')}${file('tasks/T1.md')}${file('tasks/T2.md')}${file('traceability.json')}`,
};

/** Answers the drafting commands in the pipeline's order, and counts every token sent and received. */
class CountingModel implements ChatModel {
  readonly id = 'bench';
  readonly vendor = 'bench';
  readonly family = 'scripted';
  readonly maxInputTokens = 200_000;
  tokens = 0;
  requests = 0;
  private readonly queue = [REPLIES.brainstorm, REPLIES.expand, REPLIES.plan];

  async *sendRequest(messages: readonly ChatMessage[], _options: ChatRequestOptions): AsyncIterable<ChatResponsePart> {
    this.requests++;
    const text = messages.map((m) => m.content).join('\n');
    this.tokens += estimateTokens(text);
    const reply = this.queue.shift();
    if (reply === undefined) throw new Error('the bench model was asked more than the three drafting stages');
    this.tokens += estimateTokens(reply);
    yield { type: 'text', value: reply };
  }

  async countTokens(text: string): Promise<number> {
    return estimateTokens(text);
  }
}

function freshSpec(work: string, name: string): { root: string; specDir: string } {
  const root = join(work, name);
  const created = createSpec(root, 'export-csv', new Date('2026-12-04T09:00:00Z'));
  // As loom's CLI makes it: the drafting writes spec.md.
  rmSync(join(created.dir, 'spec.md'));
  return { root, specDir: created.specDir };
}

/** The same stages by hand: one @loom turn each (its request typed), its files written, then Loom: Advance with the person's word. */
async function byHand(work: string): Promise<number> {
  const { root, specDir } = freshSpec(work, 'by-hand');
  const spec = new LoomRepository(root).get(specDir)!;
  const model = new CountingModel();
  const signal = new AbortController().signal;
  for (const name of ['brainstorm', 'expand', 'plan'] as const) {
    const command = AUTHORING[name];
    const snapshot = spec.snapshot;
    const templates = loadAuthoringTemplates(root, 'en');
    const messages = buildAuthoringMessages({ command, templates, dir: snapshot.dir, specDir, stage: command.stage, request: name === 'brainstorm' ? REQUEST : '', drafts: [], history: [] });
    const result = await runDraftingTurn({
      model,
      messages,
      specDir,
      command,
      pending: [],
      check: (d) => checkDrafts(root, specDir, command, d),
      repairMessage: (p) => buildRepairMessage(templates, p),
      onEvent: () => undefined,
      signal,
    });
    writeDrafts(spec, command, result.drafts, draftBase(snapshot.dir, result.drafts), '', new Date().toISOString());
    const asked = await request(spec, { type: 'advance', compressionConfirmed: true });
    if (asked.kind === 'needs-confirmation') await request(spec, { type: 'advance', compressionConfirmed: true }, { confirm: asked.step });
  }
  return model.tokens;
}

export async function benchPipelineRun(): Promise<string> {
  const work = mkdtempSync(join(tmpdir(), 'loom-bench-run-'));
  try {
    const manual = await byHand(work);
    const { root, specDir } = freshSpec(work, 'run');
    const spec = new LoomRepository(root).get(specDir)!;
    const model = new CountingModel();
    const refused: Refused = { kind: 'refused', code: 'invalid-request', codes: ['invalid-request'], message: 'the bench stops before git', reasons: [], remedies: [], stage: 'git-worktree' };
    const start = process.hrtime.bigint();
    const stop = await runPipeline(spec, {
      mode: 'autopilot',
      signal: new AbortController().signal,
      model: async () => model,
      reviewDrafts: async () => true,
      confirm: async () => true,
      runTasks: async () => ({ kind: 'refused', message: 'not in the bench' }),
      createWorktree: async () => refused,
      verify: async () => refused,
      sync: async () => refused,
    });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (stop.stage !== 'git-worktree') throw new Error(`the bench run stopped early at ${stop.stage}: ${stop.message}`);
    const ratio = model.tokens / manual;
    return `bench: pipeline-run ratio=${ratio.toFixed(2)} ms=${ms.toFixed(0)} stages=${stop.stages.length} runTokens=${model.tokens} byHandTokens=${manual} requests=${model.requests}`;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
