import assert from 'node:assert/strict';
import { test } from 'node:test';
import { draftingBudget, MessageTokens } from '../../../src/core/credits/draftingCredits';
import { displayLanguage, setDisplayLanguage } from '../../../src/core/messages';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { checkTurnBudget, nearLimitSaidIn } from '../../../src/host/chat/chatBudget';
import type { CommandContext } from '../../../src/host/commands/createCommand';
import type { SpecEntry } from '../../../src/host/specs/specRegistry';
import { QueueModel } from '../authoring/authoringFixture';
import { GREETING, greetingAtVerification } from '../verification/greetingRepo';

// Issue 49: `@loom`'s turns (a stage's, /refine's, /reconcile's) are capped by loom.budget.credits through the same check as
// Run Pipeline's drafting (draftingBudget), not a copy of it.

delete process.env.NODE_TEST_CONTEXT;

/** VS Code prices it at 1 credit a token: the credits are the tokens. */
class PricedModel extends QueueModel {
  readonly price = { input: 1e6, output: 1e6, cachedInput: 1e6 };
}

const MESSAGES = [{ role: 'user' as const, content: 'x'.repeat(400) }];

/** What a turn showed in the chat: its markdown and its buttons. */
function fakeStream() {
  const shown = { markdown: [] as string[], buttons: [] as { command: string; arguments?: unknown[]; title: string }[] };
  const stream = { markdown: (s: string) => void shown.markdown.push(s), button: (b: { command: string; arguments?: unknown[]; title: string }) => void shown.buttons.push(b) };
  return { shown, stream: stream as unknown as Parameters<typeof checkTurnBudget>[5] };
}

const ctxWith = (creditBudget: number) => ({ config: { creditBudget, creditPrices: undefined } }) as unknown as CommandContext;
const entryOf = (root: string) => {
  const spec = new LoomRepository(root).get(GREETING)!;
  return { dir: spec.snapshot.dir, spec } as unknown as SpecEntry;
};

test('draftingBudget: the estimate, a stop past the budget (exactly at it is sent), the 80 % mark, nothing without a budget', async () => {
  const r = greetingAtVerification();
  try {
    const snapshot = new LoomRepository(r.root).get(GREETING)!.snapshot;
    const model = new PricedModel([]);
    const tokens = () => new MessageTokens(model, new AbortController().signal);
    const none = await draftingBudget(snapshot, undefined, undefined, model, MESSAGES, tokens());
    assert.equal(none.estimate.credits, 100);
    assert.equal(none.stop, undefined);
    assert.equal((await draftingBudget(snapshot, undefined, 100, model, MESSAGES, tokens())).stop, undefined, 'reaching the budget exactly is sent');
    const over = await draftingBudget(snapshot, undefined, 99, model, MESSAGES, tokens());
    assert.equal(
      over.stop,
      'the credits budget would be passed: 0.00 of 99.00 credits used, and the next request is estimated at 100.00 credits; raise loom.budget.credits to continue (finished work is kept)',
    );
    assert.equal((await draftingBudget(snapshot, undefined, 1000, model, MESSAGES, tokens())).nearLimit, undefined);
  } finally {
    r.dispose();
  }
});

for (const language of ['en', 'zh'] as const) {
  test(`an @loom turn that would pass the budget is not sent: the reply says how far the spec got and what the turn would cost (${language})`, async () => {
    const before = displayLanguage();
    setDisplayLanguage(language);
    const r = greetingAtVerification();
    try {
      const model = new PricedModel([]);
      const { shown, stream } = fakeStream();
      const { stop: stopped } = await checkTurnBudget(ctxWith(99), entryOf(r.root), 'brainstorm', model, MESSAGES, stream, [], new AbortController().signal);
      assert.match(stopped ?? '', language === 'en' ? /^the credits budget would be passed/ : /^将超出 credits 预算/);
      assert.equal(model.requests.length, 0, 'nothing sent to the model');
      const expected =
        language === 'en'
          ? '> @loom did not send /brainstorm to the model: the credits budget would be passed: 0.00 of 99.00 credits used, and the next request is estimated at 100.00 credits; raise loom.budget.credits to continue (finished work is kept).\n\n'
          : '> @loom 未将 /brainstorm 发送给模型：将超出 credits 预算：已用 0.00 / 99.00 credits，下一个请求预计 100.00 credits；提高 loom.budget.credits 后继续（已完成的工作会保留）。\n\n';
      assert.deepEqual(shown.markdown, [expected]);
      assert.deepEqual(
        shown.buttons.map((b) => [b.command, b.arguments]),
        [['workbench.action.openSettings', ['loom.budget.credits']]],
      );
    } finally {
      setDisplayLanguage(before);
      r.dispose();
    }
  });
}

test('without a budget the turn goes on, its tokens not even counted', async () => {
  const r = greetingAtVerification();
  try {
    const model = new PricedModel([]);
    let counted = 0;
    model.countTokens = async () => (counted++, 1);
    const { shown, stream } = fakeStream();
    assert.deepEqual(await checkTurnBudget(ctxWith(0), entryOf(r.root), 'respond', model, MESSAGES, stream, [], new AbortController().signal), {});
    assert.deepEqual(shown.markdown, []);
    assert.equal(counted, 0);
  } finally {
    r.dispose();
  }
});

/** The greeting spec with 800 of its credits used: 80 % of a 1000 credits budget. */
function greetingAt80(r: ReturnType<typeof greetingAtVerification>): void {
  const state = r.json(`${GREETING}/pipeline.state.json`);
  r.write(`${GREETING}/pipeline.state.json`, { ...state, metadata: { ...state.metadata, token_usage: { total: { input: 0, output: 0 }, credits: { total: 800 } } } });
}

/** An earlier answer of the conversation, as VS Code gives it in the chat's history. */
const answered = (metadata: object) => ({ participant: 'loom.chat', command: 'refine', response: [], result: { metadata } });

for (const language of ['en', 'zh'] as const) {
  test(`at 80 % of the budget an @loom turn is sent, its reply saying so first with Open Dashboard and Open Settings (${language})`, async () => {
    const before = displayLanguage();
    setDisplayLanguage(language);
    const r = greetingAtVerification();
    try {
      greetingAt80(r);
      const entry = entryOf(r.root);
      const { shown, stream } = fakeStream();
      const budget = await checkTurnBudget(ctxWith(1000), entry, 'refine', new PricedModel([]), MESSAGES, stream, [], new AbortController().signal);
      assert.deepEqual(budget, { nearLimitSaid: true }, 'the turn is sent: 800 + 100 stays within 1000');
      const expected =
        language === 'en'
          ? `> ${GREETING}: 800.00 of the 1000.00 AI credits budget used (80 %). @loom does not send a turn that would pass it.\n\n`
          : `> ${GREETING}：已用 800.00 / 1000.00 AI credits 预算（80%）。@loom 不会发送将超出预算的请求。\n\n`;
      assert.deepEqual(shown.markdown, [expected]);
      assert.deepEqual(
        shown.buttons.map((b) => [b.command, b.arguments]),
        [
          ['loom.openDashboard', [{ specDir: entry.dir }]],
          ['workbench.action.openSettings', ['loom.budget.credits']],
        ],
      );
    } finally {
      setDisplayLanguage(before);
      r.dispose();
    }
  });
}

test('the 80 % warning is said once per conversation and spec: not again after an answer about the spec that said it', async () => {
  const r = greetingAtVerification();
  try {
    greetingAt80(r);
    const entry = entryOf(r.root);
    const run = async (history: object[]) => {
      const { shown, stream } = fakeStream();
      const budget = await checkTurnBudget(ctxWith(1000), entry, 'reconcile', new PricedModel([]), MESSAGES, stream, history as never, new AbortController().signal);
      return { budget, shown };
    };
    const again = await run([{ prompt: 'hi', participant: 'loom.chat', references: [] }, answered({ dir: entry.dir, nearLimitSaid: true })]);
    assert.deepEqual(again.budget, {});
    assert.deepEqual(again.shown.markdown, []);
    assert.deepEqual(again.shown.buttons, []);
    // Said about another spec, or an answer that did not say it: this spec's turn says it.
    const other = await run([answered({ dir: `${entry.dir}-other`, nearLimitSaid: true }), answered({ dir: entry.dir })]);
    assert.deepEqual(other.budget, { nearLimitSaid: true });
    assert.equal(other.shown.markdown.length, 1);
  } finally {
    r.dispose();
  }
});

test('below 80 % nothing is said; a stop is said even after the warning', async () => {
  const r = greetingAtVerification();
  try {
    greetingAt80(r);
    const entry = entryOf(r.root);
    const history = [answered({ dir: entry.dir, nearLimitSaid: true })] as never;
    assert.equal(nearLimitSaidIn(history, entry.dir), true);
    const { shown, stream } = fakeStream();
    assert.deepEqual(await checkTurnBudget(ctxWith(2000), entry, 'plan', new PricedModel([]), MESSAGES, stream, [], new AbortController().signal), {});
    assert.deepEqual(shown.markdown, []);
    const stopped = await checkTurnBudget(ctxWith(850), entry, 'plan', new PricedModel([]), MESSAGES, stream, history, new AbortController().signal);
    assert.match(stopped.stop ?? '', /^the credits budget would be passed: 800\.00 of 850\.00/);
  } finally {
    r.dispose();
  }
});
