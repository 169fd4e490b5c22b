'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const http = require('node:http');
const { createApp } = require('../src/app');
const { TodoStore } = require('../src/store');

/** Starts the API on a free port for one test; returns a fetch helper bound to it. */
async function startApi(t) {
  const store = new TodoStore({ now: () => new Date('2026-11-21T02:00:00.000Z') });
  const server = http.createServer(createApp(store));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => server.close(resolve)));
  const base = `http://127.0.0.1:${server.address().port}`;
  const call = async (method, path, body) => {
    const res = await fetch(base + path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  return { store, call };
}

test('REQ-001-B01 POST /todos returns 201 and the new todo', async (t) => {
  const { call } = await startApi(t);
  const res = await call('POST', '/todos', { title: 'Buy milk' });
  assert.equal(res.status, 201);
  assert.deepEqual(res.body, { title: 'Buy milk', id: '1', done: false, createdAt: '2026-11-21T02:00:00.000Z' });
});

test('REQ-001-B02 POST /todos with a bad title returns 400', async (t) => {
  const { call } = await startApi(t);
  for (const body of [{}, { title: ' ' }, { title: 7 }]) {
    const res = await call('POST', '/todos', body);
    assert.equal(res.status, 400);
    assert.equal(typeof res.body.error, 'string');
  }
});

test('REQ-001-B04 a rejected POST stores nothing and consumes no id', async (t) => {
  const { call, store } = await startApi(t);
  await call('POST', '/todos', { title: '' });
  assert.equal(store.size, 0);
  assert.equal((await call('POST', '/todos', { title: 'ok' })).body.id, '1');
});

test('REQ-001-B05 a body that is not JSON returns 400', async (t) => {
  const { call } = await startApi(t);
  const res = await call('POST', '/todos', '{"title": ');
  assert.equal(res.status, 400);
  assert.match(res.body.error, /JSON/);
});

test('REQ-002-B01 GET /todos lists todos in creation order; GET /todos/:id returns one', async (t) => {
  const { call } = await startApi(t);
  await call('POST', '/todos', { title: 'a' });
  await call('POST', '/todos', { title: 'b' });
  assert.deepEqual((await call('GET', '/todos')).body.map((todo) => todo.title), ['a', 'b']);
  assert.equal((await call('GET', '/todos/2')).body.title, 'b');
});

test('REQ-002-B03 GET /todos/:id of an unknown id returns 404', async (t) => {
  const { call } = await startApi(t);
  const res = await call('GET', '/todos/99');
  assert.equal(res.status, 404);
});

test('REQ-003-B01 PATCH /todos/:id updates title and done', async (t) => {
  const { call } = await startApi(t);
  await call('POST', '/todos', { title: 'a' });
  const res = await call('PATCH', '/todos/1', { title: 'b', done: true });
  assert.equal(res.status, 200);
  assert.equal(res.body.title, 'b');
  assert.equal(res.body.done, true);
});

test('REQ-003-B03 DELETE /todos/:id returns 204, then 404', async (t) => {
  const { call } = await startApi(t);
  await call('POST', '/todos', { title: 'a' });
  await call('POST', '/todos', { title: 'b' });
  assert.equal((await call('DELETE', '/todos/1')).status, 204);
  assert.equal((await call('DELETE', '/todos/1')).status, 404);
  assert.deepEqual((await call('GET', '/todos')).body.map((todo) => todo.id), ['2']);
});
