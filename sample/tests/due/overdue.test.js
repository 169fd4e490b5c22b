'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { isOverdue, filterOverdue, sortByDueDate } = require('../../src/due/overdue');

const todo = (id, dueDate, done = false) => ({ id, title: `todo ${id}`, done, dueDate });

test('REQ-002-B01 只返回未完成且已过截止日期的待办', () => {
  const todos = [todo('1', '2026-11-20'), todo('2', '2026-12-31'), todo('3', undefined), todo('4', null)];
  assert.deepEqual(filterOverdue(todos, '2026-11-27').map((t) => t.id), ['1']);
});

test('REQ-002-B02 截止日当天不算逾期', () => {
  assert.equal(isOverdue(todo('1', '2026-11-27'), '2026-11-27'), false);
  assert.equal(isOverdue(todo('1', '2026-11-26'), '2026-11-27'), true);
});

test('REQ-002-B03 已完成的待办不算逾期，重新打开后再次计入', () => {
  const t = todo('1', '2026-11-01', true);
  assert.equal(isOverdue(t, '2026-11-27'), false);
  assert.equal(isOverdue({ ...t, done: false }, '2026-11-27'), true);
});

test('REQ-003-B01 按截止日期升序排列', () => {
  const sorted = sortByDueDate([todo('1', '2026-12-03'), todo('2', '2026-12-01'), todo('3', '2026-12-02')]);
  assert.deepEqual(sorted.map((t) => t.id), ['2', '3', '1']);
});

test('REQ-003-B02 无截止日期的排在最后，同一天保持创建顺序', () => {
  const sorted = sortByDueDate([todo('1', null), todo('2', '2026-12-01'), todo('3', undefined), todo('4', '2026-12-01')]);
  assert.deepEqual(sorted.map((t) => t.id), ['2', '4', '1', '3']);
});
