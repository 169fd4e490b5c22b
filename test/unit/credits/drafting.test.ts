import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChatModel, ChatMessage } from '../../../src/core/executing/dispatch/chatModel';
import { TokenLedger } from '../../../src/core/executing/transcripts/tokenLedger';
import type { NeedsConfirmation } from '../../../src/core/port/answer';
import { request } from '../../../src/core/port/request';
import { runPipeline, type RunPorts } from '../../../src/core/pipelineRun/pipelineRun';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import type { SpecPipeline } from '../../../src/core/repository/specPipeline';
import { buildDashboardModel } from '../../../src/core/views/dashboardModel';
import { block, QueueModel } from '../authoring/authoringFixture';
import { GREETING, greetingAtVerification } from '../verification/greetingRepo';

// Issue 49: a stage's drafting is priced and kept as the subagents' requests are (the spec's
// ledger in pipeline.state.json), estimated before it is sent, and stopped by loom.budget.credits.

delete process.env.NODE_TEST_CONTEXT;

const REVIEW_REQUEST = '# Code review request: greeting\n\n## Summary\n\nGreets a person by name (REQ-001).\n\n## Verification\n\nverify-report.md: PASS.\n';

/** VS Code prices it (languageModelPricing) at 1 credit a token: the credits are the tokens. */
class PricedModel extends QueueModel {
  readonly price = { input: 1e6, output: 1e6, cachedInput: 1e6 };
}

function ports(spec: SpecPipeline, model: ChatModel, over: Partial<RunPorts> = {}): RunPorts {
  return {
    mode: 'autopilot',
    signal: new AbortController().signal,
    model: async () => model,
    reviewDrafts: async () => true,
    confirm: async (_q: NeedsConfirmation) => true,
    runTasks: async () => ({ kind: 'refused', message: 'no tasks run in these tests' }),
    createWorktree: () => request(spec, { type: 'createWorktree', location: '' }),
    verify: () => request(spec, { type: 'verify', verify: { trusted: true, writer: 'unit test' } }),
    sync: () => request(spec, { type: 'sync' }),
    ...over,
  };
}

const tokensOf = (messages: readonly ChatMessage[]) => messages.reduce((n, m) => n + Math.ceil(m.content.length / 4), 0);

test('Run Pipeline’s drafting is priced and kept in the spec’s ledger: the stage’s, the run’s and the spec’s totals, after a reload too', async () => {
  const r = greetingAtVerification();
  try {
    const spec = new LoomRepository(r.root).get(GREETING)!;
    const reply = block({ path: 'review-request.md', content: REVIEW_REQUEST });
    const model = new PricedModel([reply]);
    const lines: string[] = [];
    const stop = await runPipeline(spec, ports(spec, model, { onEvent: (_s, l) => lines.push(l) }));
    assert.equal(stop.reason, 'review-gate', stop.message);
    const input = tokensOf(model.requests[0]);
    const output = Math.ceil(reply.length / 4);
    // Read again from disk, as a reloaded window reads it.
    const usage = r.json(`${GREETING}/pipeline.state.json`).metadata.token_usage;
    assert.equal(usage.credits.stages['code-review-request'], input + output);
    assert.equal(usage.credits.roles.drafter, input + output);
    assert.equal(usage.credits.total, input + output);
    assert.deepEqual(usage.requests.drafter, { count: 1, output });
    assert.match(usage.credits.prices.queue, /VS Code/);
    assert.equal(new TokenLedger(usage).creditsUsed(), input + output);
    const dashboard = buildDashboardModel(new LoomRepository(r.root).load().get(GREETING)!);
    assert.equal(dashboard.tokenUsage?.credits?.total, input + output);
    // Said before and after the request, and kept in the stage's transcript.
    assert.ok(lines.includes(`Estimated before drafting: ${input.toFixed(2)} AI credits (${input} tokens in, about 0 out).`), lines.join('\n'));
    assert.ok(lines.includes(`The drafting cost ${(input + output).toFixed(2)} AI credits (${input} tokens in, ${output} out).`), lines.join('\n'));
    assert.equal(stop.stages[1].credits, input + output);
    assert.match(r.read(`${GREETING}/transcripts/run-code-review-request.md`), new RegExp(`- AI credits: ${input + output}\\.00`));
  } finally {
    r.dispose();
  }
});

test('loom.budget.credits stops Run Pipeline before a drafting request that would pass it; nothing is sent', async () => {
  const r = greetingAtVerification();
  try {
    const spec = new LoomRepository(r.root).get(GREETING)!;
    const model = new PricedModel([block({ path: 'review-request.md', content: REVIEW_REQUEST })]);
    const stop = await runPipeline(spec, ports(spec, model, { credits: { budget: 100 } }));
    assert.equal(stop.reason, 'budget', stop.message);
    assert.equal(stop.stage, 'code-review-request', 'verification ran (no model), the drafting did not');
    assert.match(stop.message, /^the credits budget would be passed: 0\.00 of 100\.00 credits used, and the next request is estimated at \d+\.00 credits/);
    assert.equal(model.requests.length, 0);
    assert.equal(r.json(`${GREETING}/pipeline.state.json`).current_stage, 'code-review-request');
  } finally {
    r.dispose();
  }
});

test('a drafting model without a price: kept in tokens, named, and the budget does not stop on a price it does not know', async () => {
  const r = greetingAtVerification();
  try {
    const spec = new LoomRepository(r.root).get(GREETING)!;
    const model = new QueueModel([block({ path: 'review-request.md', content: REVIEW_REQUEST })]);
    const lines: string[] = [];
    const stop = await runPipeline(spec, ports(spec, model, { credits: { budget: 1 }, onEvent: (_s, l) => lines.push(l) }));
    assert.equal(stop.reason, 'review-gate', stop.message);
    const usage = r.json(`${GREETING}/pipeline.state.json`).metadata.token_usage;
    assert.deepEqual(usage.credits.unpriced.models, ['queue']);
    assert.equal(usage.credits.total, 0);
    assert.ok(
      lines.some((l) => /^The drafting used \d+ tokens in, \d+ out \(queue: no price known, shown in tokens\)\.$/.test(l)),
      lines.join('\n'),
    );
  } finally {
    r.dispose();
  }
});

test('80 % of the credits budget: Run Pipeline says it once, before the drafting', async () => {
  const r = greetingAtVerification();
  try {
    const state = r.json(`${GREETING}/pipeline.state.json`);
    r.write(`${GREETING}/pipeline.state.json`, { ...state, metadata: { ...state.metadata, token_usage: { total: { input: 0, output: 0 }, credits: { total: 800_000 } } } });
    const spec = new LoomRepository(r.root).get(GREETING)!;
    const model = new PricedModel([block({ path: 'review-request.md', content: REVIEW_REQUEST })]);
    const near: number[][] = [];
    const stop = await runPipeline(spec, ports(spec, model, { credits: { budget: 1_000_000 }, onNearLimit: (used, budget) => near.push([used, budget]) }));
    assert.equal(stop.reason, 'review-gate', stop.message);
    assert.deepEqual(near, [[800_000, 1_000_000]]);
  } finally {
    r.dispose();
  }
});
