import assert from 'node:assert/strict';
import { test } from 'node:test';
import { draftingBudget, MessageTokens } from '../../../src/core/credits/draftingCredits';
import { displayLanguage, setDisplayLanguage } from '../../../src/core/messages';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { budgetStopsTurn } from '../../../src/host/chat/chatBudget';
import type { CommandContext } from '../../../src/host/commands/createCommand';
import type { SpecEntry } from '../../../src/host/specs/specRegistry';
import { QueueModel } from '../authoring/authoringFixture';
import { GREETING, greetingAtVerification } from '../verification/greetingRepo';

// Issue 49: `@loom`'s stage turns are capped by loom.budget.credits through the same check as
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
  return { shown, stream: stream as unknown as Parameters<typeof budgetStopsTurn>[5] };
}

const ctxWith = (creditBudget: number) => ({ config: { creditBudget, creditPrices: undefined } }) as unknown as CommandContext;
const entryOf = (root: string) => ({ spec: new LoomRepository(root).get(GREETING)! }) as unknown as SpecEntry;

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
      const stopped = await budgetStopsTurn(ctxWith(99), entryOf(r.root), 'brainstorm', model, MESSAGES, stream, new AbortController().signal);
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
    assert.equal(await budgetStopsTurn(ctxWith(0), entryOf(r.root), 'respond', model, MESSAGES, stream, new AbortController().signal), undefined);
    assert.deepEqual(shown.markdown, []);
    assert.equal(counted, 0);
  } finally {
    r.dispose();
  }
});
