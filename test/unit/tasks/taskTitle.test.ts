import { test } from 'node:test';
import assert from 'node:assert/strict';
import { taskTitleWithoutId } from '../../../src/core/tasks/taskTitle';

test('a heading without the task id in front, after an ASCII or a full-width colon', () => {
  assert.equal(taskTitleWithoutId('T1', 'T1: Due dates'), 'Due dates');
  assert.equal(taskTitleWithoutId('T1', 'T1：截止日期提醒'), '截止日期提醒');
  assert.equal(taskTitleWithoutId('T1', 'T1 — Login'), 'Login');
  assert.equal(taskTitleWithoutId('T1', 'T1、登录'), '登录');
  assert.equal(taskTitleWithoutId('T1', 'Login form'), 'Login form');
  // T10 is another task: the id must end where the heading's id ends.
  assert.equal(taskTitleWithoutId('T1', 'T10 Export'), 'T10 Export');
  assert.equal(taskTitleWithoutId('T1', 'T1'), undefined);
  assert.equal(taskTitleWithoutId('T1', 'T1：'), undefined);
  assert.equal(taskTitleWithoutId('T1', undefined), undefined);
  assert.equal(taskTitleWithoutId('T.1', 'T.1: Dots'), 'Dots');
});
