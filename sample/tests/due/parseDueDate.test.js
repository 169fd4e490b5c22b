'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { parseDueDate } = require('../../src/due/parseDueDate');

test('REQ-001-B01 合法的 YYYY-MM-DD 被接受并原样保存', () => {
  assert.deepEqual(parseDueDate('2026-12-01'), { ok: true, present: true, value: '2026-12-01' });
  assert.deepEqual(parseDueDate(' 2028-02-29 '), { ok: true, present: true, value: '2028-02-29' });
});

test('REQ-001-B02 格式错误或不存在的日期被拒绝并说明原因', () => {
  for (const input of ['2026-02-30', '2026-13-01', '12/01/2026', '2026-12-1', '', 20261201, true, {}]) {
    const result = parseDueDate(input);
    assert.equal(result.ok, false, String(input));
    assert.match(result.error, /dueDate/);
  }
});

test('REQ-001-B03 null 清除截止日期，缺省时不改动', () => {
  assert.deepEqual(parseDueDate(null), { ok: true, present: true, value: null });
  assert.deepEqual(parseDueDate(undefined), { ok: true, present: false });
});
