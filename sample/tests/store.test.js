'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { TodoStore } = require('../src/store');

const fixedClock = () => new Date('2026-11-21T02:00:00.000Z');

test('REQ-001-B01 create stores a todo with an id, done false and createdAt', () => {
  const store = new TodoStore({ now: fixedClock });
  const todo = store.create({ title: 'Buy milk' });
  assert.deepEqual(todo, { title: 'Buy milk', id: '1', done: false, createdAt: '2026-11-21T02:00:00.000Z' });
  assert.deepEqual(store.get('1'), todo);
});

test('REQ-001-B04 ids are consumed only by create, so they stay consecutive', () => {
  const store = new TodoStore({ now: fixedClock });
  store.create({ title: 'first' });
  assert.equal(store.size, 1);
  assert.equal(store.create({ title: 'second' }).id, '2');
});

test('REQ-002-B01 list returns every todo in creation order, as copies', () => {
  const store = new TodoStore({ now: fixedClock });
  store.create({ title: 'a' });
  store.create({ title: 'b' });
  const list = store.list();
  assert.deepEqual(list.map((t) => t.title), ['a', 'b']);
  list[0].title = 'changed';
  assert.equal(store.get('1').title, 'a');
});

test('REQ-002-B02 an empty store lists nothing', () => {
  assert.deepEqual(new TodoStore().list(), []);
});

test('REQ-003-B01 update applies a patch and keeps id and createdAt', () => {
  const store = new TodoStore({ now: fixedClock });
  store.create({ title: 'a' });
  const updated = store.update('1', { title: 'b', done: true, id: '9', createdAt: 'x' });
  assert.deepEqual(updated, { title: 'b', id: '1', done: true, createdAt: '2026-11-21T02:00:00.000Z' });
  assert.equal(store.update('404', { done: true }), undefined);
});

test('REQ-003-B02 a done todo can be reopened', () => {
  const store = new TodoStore();
  store.create({ title: 'a' });
  store.update('1', { done: true });
  assert.equal(store.update('1', { done: false }).done, false);
});

test('REQ-003-B03 remove is true once, then false; other todos stay', () => {
  const store = new TodoStore();
  store.create({ title: 'a' });
  store.create({ title: 'b' });
  assert.equal(store.remove('1'), true);
  assert.equal(store.remove('1'), false);
  assert.deepEqual(store.list().map((t) => t.id), ['2']);
});
