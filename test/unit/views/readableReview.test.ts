import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readableReview } from '../../../src/core/executing/dispatch/fixInstructions';

test("a review's fix instructions read as words and a list, not as literal markdown", () => {
  const text = [
    'FAIL',
    '',
    '## 修复指令',
    '',
    '### 修复项 1',
    '- 问题：截止日期未校验',
    '- 文件：src/due.ts',
    '- 位置：12',
    '- 严重度：BLOCKER',
    '- 修复方向：拒绝过去的日期',
    '',
    '### 修复项 2',
    '- 问题：缺少测试',
  ].join('\n');
  const r = readableReview(text);
  assert.equal(r.summary, 'FAIL');
  assert.deepEqual(r.items, [{ problem: '截止日期未校验', file: 'src/due.ts', location: '12', severity: 'BLOCKER', direction: '拒绝过去的日期' }, { problem: '缺少测试' }]);
  assert.ok(!r.summary.includes('#'));
});

test('a text without fix instructions keeps its words, heading marks dropped', () => {
  assert.deepEqual(readableReview('## Verdict\nFAIL: the counter is not persisted'), { summary: 'Verdict FAIL: the counter is not persisted', items: [] });
  assert.deepEqual(readableReview('PASS'), { summary: 'PASS', items: [] });
});
