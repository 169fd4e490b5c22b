import assert from 'node:assert/strict';
import { test } from 'node:test';
import { benchFixModeTokens, estimateTokens, FIXTURE_ROOT } from '../../../bench/fixModeTokens';

test('the word-piece token estimate counts CJK characters, ASCII word pieces and symbols', () => {
  assert.equal(estimateTokens(''), 0);
  assert.equal(estimateTokens('截止日期'), 4);
  assert.equal(estimateTokens('parseDueDate'), 3);
  assert.equal(estimateTokens('a, b'), 3);
  assert.equal(estimateTokens('REQ-001-B01'), 5);
});

for (const [name, roots] of [
  ['the sample spec (or the fixture when there is none)', undefined],
  ['the English fixture', [FIXTURE_ROOT]],
] as const) {
  test(`bench: the fix-mode prompt is under 0.3 of the first-implementation prompt on ${name}`, async () => {
    const line = await benchFixModeTokens(roots);
    const m = /^bench: fix-mode-tokens ratio=(\d+\.\d+) /.exec(line);
    assert.ok(m, line);
    assert.ok(Number(m[1]) < 0.3, line);
  });
}
