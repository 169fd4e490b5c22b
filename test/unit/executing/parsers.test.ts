import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseFixInstructions, renderFixInstructions, summarizeFixItems } from '../../../src/core/executing/dispatch/fixInstructions';
import { parseImplementerReport } from '../../../src/core/executing/dispatch/implementerReport';
import { parseImplementerStatus } from '../../../src/core/executing/dispatch/implementerStatus';
import { parseReviewerVerdict } from '../../../src/core/executing/dispatch/reviewerVerdict';

test('implementer status: English and Chinese forms, last line wins, detail from the line or the paragraph above', () => {
  const cases: [string, string, string][] = [
    ['work\n\nSTATUS: DONE', 'DONE', 'work'],
    ['**Status:** DONE_WITH_CONCERNS — the API is slow', 'DONE_WITH_CONCERNS', 'the API is slow'],
    ['状态：NEEDS_CONTEXT：适用哪个时区？', 'NEEDS_CONTEXT', '适用哪个时区？'],
    ['状态: 完成但有顾虑', 'DONE_WITH_CONCERNS', ''],
    ['状态：阻塞（缺少数据库）', 'BLOCKED', '缺少数据库'],
    ['The schema is missing.\n\nBLOCKED', 'BLOCKED', 'The schema is missing.'],
    ['STATUS: BLOCKED\n\nlater I changed my mind\nSTATUS: DONE', 'DONE', 'later I changed my mind'],
    ['`DONE`', 'DONE', ''],
    ['status: needs_context: which one?', 'NEEDS_CONTEXT', 'which one?'],
  ];
  for (const [text, status, detail] of cases) {
    const r = parseImplementerStatus(text);
    assert.ok(r.ok, text);
    assert.equal(r.status, status, text);
    if (detail) assert.equal(r.detail, detail, text);
  }
});

test('implementer status: prose is not a status; no status line is malformed, never DONE', () => {
  for (const text of ['', 'I am DONE with the parser.', 'Everything is done.', 'DONEX', 'The task is BLOCKED by nothing', 'status: finished']) {
    assert.equal(parseImplementerStatus(text).ok, false, JSON.stringify(text));
  }
});

test('reviewer verdict: PASS, FAIL, 通过 / 不通过, bare last line; none is malformed', () => {
  assert.deepEqual(parseReviewerVerdict('fine\nverdict: PASS'), { ok: true, verdict: 'PASS', fixItems: [] });
  assert.equal((parseReviewerVerdict('**Verdict:** FAIL') as { verdict: string }).verdict, 'FAIL');
  assert.equal((parseReviewerVerdict('结论：通过') as { verdict: string }).verdict, 'PASS');
  assert.equal((parseReviewerVerdict('结论：不通过') as { verdict: string }).verdict, 'FAIL');
  assert.equal((parseReviewerVerdict('All good.\n\n**PASS**') as { verdict: string }).verdict, 'PASS');
  assert.equal(parseReviewerVerdict('Looks good to me, ship it.').ok, false);
  assert.equal(parseReviewerVerdict('the PASS rate is fine').ok, false);
});

test('reviewer FAIL without fix instructions carries its text as one item; PASS with a blocker is FAIL', () => {
  const r = parseReviewerVerdict('The parser accepts month 13.\nverdict: FAIL');
  assert.ok(r.ok && r.verdict === 'FAIL');
  assert.deepEqual(r.fixItems, [{ problem: 'The parser accepts month 13.' }]);
  const contradictory = parseReviewerVerdict('## Fix instructions\n### Fix item 1\n- Problem: SQL injection\n- Severity: blocker\nverdict: PASS');
  assert.ok(contradictory.ok && contradictory.verdict === 'FAIL' && contradictory.overridden);
  assert.equal(contradictory.fixItems[0].problem, 'SQL injection');
});

test("fix instructions: loom's Chinese section and the English equivalent, with multi-line fields", () => {
  const zh = parseFixInstructions(`审查意见如下。

## 修复指令

### 修复项 1
- **问题**：月份 13 被接受
- **文件**：src/due.js
- **位置**：parseDueDate 第 3 行
- **严重度**：阻断
- **修复方向**：校验月份范围
  并补充测试

### 修复项 2
问题：缺少 REQ-001-B02 的测试
文件：tests/due.test.js
严重度：主要

## 其他
不相关的内容：不是修复项
结论：不通过`);
  assert.deepEqual(zh, [
    { problem: '月份 13 被接受', file: 'src/due.js', location: 'parseDueDate 第 3 行', severity: '阻断', direction: '校验月份范围 并补充测试' },
    { problem: '缺少 REQ-001-B02 的测试', file: 'tests/due.test.js', severity: '主要' },
  ]);
  const en = parseFixInstructions('## Fix instructions\n\n### Fix item 1: Missing null check\n- File: `src/a.ts`\n- Location: line 4\n- Severity: minor\n- Direction: return null\n');
  assert.deepEqual(en, [{ problem: 'Missing null check', file: 'src/a.ts', location: 'line 4', severity: 'minor', direction: 'return null' }]);
  assert.deepEqual(parseFixInstructions('no section here\n### Fix item 1\n- Problem: x'), []);
});

test("fix instructions render back in loom's format and summarise to one line each", () => {
  const items = [{ problem: 'p', file: 'f.ts', location: 'l', severity: 'blocker', direction: 'd' }, { problem: 'q' }];
  const zh = renderFixInstructions(items, 'zh');
  assert.equal(zh, '## 修复指令\n\n### 修复项 1\n- 问题: p\n- 文件: f.ts\n- 位置: l\n- 严重度: blocker\n- 修复方向: d\n\n### 修复项 2\n- 问题: q');
  assert.deepEqual(parseFixInstructions(zh), items);
  assert.deepEqual(parseFixInstructions(renderFixInstructions(items, 'en')), items);
  assert.deepEqual(summarizeFixItems(items), ['[blocker] f.ts:l: p', 'q']);
});

test('implementer report: summary, tests per behavior, exported interfaces, concerns', () => {
  const r = parseImplementerReport(`## Summary
Added the parser.

## Tests
- REQ-001-B01: tests/due.test.ts#parses a date, tests/due.more.test.ts
- \`REQ-001-B02\` → tests/due.test.ts::rejects

## Exported interfaces
| name | path | signature |
|---|---|---|
- parseDueDate | src/due.ts | (s: string) => Date | null

## Concerns
Time zones are not handled.

STATUS: DONE_WITH_CONCERNS`);
  assert.equal(r.summary, 'Added the parser.');
  assert.deepEqual(
    [...r.tests],
    [
      ['REQ-001-B01', ['tests/due.test.ts#parses a date', 'tests/due.more.test.ts']],
      ['REQ-001-B02', ['tests/due.test.ts::rejects']],
    ],
  );
  assert.deepEqual(r.exportedInterfaces, [{ name: 'parseDueDate', path: 'src/due.ts', signature: '(s: string) => Date | null' }]);
  assert.equal(r.concerns, 'Time zones are not handled.');
  const zh = parseImplementerReport('## 摘要\n实现了解析。\n\n## 测试\n- REQ-002-B01：tests/a.test.js#显示\n\n状态：DONE');
  assert.equal(zh.summary, '实现了解析。');
  assert.deepEqual(zh.tests.get('REQ-002-B01'), ['tests/a.test.js#显示']);
});
