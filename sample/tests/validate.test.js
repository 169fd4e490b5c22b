'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { MAX_TITLE_LENGTH, validateNewTodo, validateTodoPatch } = require('../src/validate');

test('REQ-001-B02 a missing, blank or non-string title is rejected', () => {
  for (const body of [{}, { title: '' }, { title: '   ' }, { title: 42 }, null, [], 'title']) {
    const result = validateNewTodo(body);
    assert.equal(result.ok, false, JSON.stringify(body));
    assert.match(result.error, /title|object/);
  }
});

test('REQ-001-B03 titles are trimmed; 200 characters pass, 201 do not', () => {
  assert.deepEqual(validateNewTodo({ title: '  Buy milk  ' }), { ok: true, value: { title: 'Buy milk' } });
  assert.equal(validateNewTodo({ title: 'x'.repeat(MAX_TITLE_LENGTH) }).ok, true);
  assert.equal(validateNewTodo({ title: ` ${'x'.repeat(MAX_TITLE_LENGTH)} ` }).ok, true);
  assert.equal(validateNewTodo({ title: 'x'.repeat(MAX_TITLE_LENGTH + 1) }).ok, false);
});

test('REQ-003-B01 a patch may set title and done', () => {
  assert.deepEqual(validateTodoPatch({ title: ' new ', done: true }), { ok: true, value: { title: 'new', done: true } });
  assert.deepEqual(validateTodoPatch({}), { ok: true, value: {} });
});

test('REQ-003-B04 unknown fields and wrong types are rejected', () => {
  assert.equal(validateTodoPatch({ id: '7' }).ok, false);
  assert.equal(validateTodoPatch({ done: 'yes' }).ok, false);
  assert.equal(validateTodoPatch({ title: '' }).ok, false);
  assert.equal(validateTodoPatch(null).ok, false);
});
