'use strict';

const { validateNewTodo, validateTodoPatch } = require('./validate');

const MAX_BODY_BYTES = 64 * 1024;

function send(res, status, body) {
  if (body === undefined) {
    res.writeHead(status);
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function readJson(req) {
  return new Promise((resolve) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > MAX_BODY_BYTES) return resolve({ ok: false, error: 'the body is too large' });
      try {
        resolve({ ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      } catch {
        resolve({ ok: false, error: 'the body is not valid JSON' });
      }
    });
  });
}

/** The request handler of the todo API, over one store. */
function createApp(store) {
  return async function handle(req, res) {
    const { pathname } = new URL(req.url, 'http://localhost');
    const match = /^\/todos(?:\/([^/]+))?\/?$/.exec(pathname);
    if (!match) return send(res, 404, { error: 'not found' });
    const id = match[1];

    if (id === undefined) {
      if (req.method === 'GET') return send(res, 200, store.list());
      if (req.method === 'POST') {
        const body = await readJson(req);
        if (!body.ok) return send(res, 400, { error: body.error });
        const input = validateNewTodo(body.value);
        if (!input.ok) return send(res, 400, { error: input.error });
        return send(res, 201, store.create(input.value));
      }
      return send(res, 405, { error: 'method not allowed' });
    }

    if (req.method === 'GET') {
      const todo = store.get(id);
      return todo ? send(res, 200, todo) : send(res, 404, { error: `todo ${id} not found` });
    }
    if (req.method === 'PATCH') {
      const body = await readJson(req);
      if (!body.ok) return send(res, 400, { error: body.error });
      const patch = validateTodoPatch(body.value);
      if (!patch.ok) return send(res, 400, { error: patch.error });
      const todo = store.update(id, patch.value);
      return todo ? send(res, 200, todo) : send(res, 404, { error: `todo ${id} not found` });
    }
    if (req.method === 'DELETE') {
      return store.remove(id) ? send(res, 204) : send(res, 404, { error: `todo ${id} not found` });
    }
    return send(res, 405, { error: 'method not allowed' });
  };
}

module.exports = { createApp };
