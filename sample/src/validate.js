'use strict';

/** Longest title accepted, counted after trimming. */
const MAX_TITLE_LENGTH = 200;

const PATCH_FIELDS = new Set(['title', 'done']);

function isPlainObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function checkTitle(title) {
  if (typeof title !== 'string') return { ok: false, error: 'title must be a string' };
  const trimmed = title.trim();
  if (trimmed.length === 0) return { ok: false, error: 'title must not be blank' };
  if (trimmed.length > MAX_TITLE_LENGTH) return { ok: false, error: `title must be at most ${MAX_TITLE_LENGTH} characters` };
  return { ok: true, value: trimmed };
}

/** The body of POST /todos: `{ title }`. */
function validateNewTodo(body) {
  if (!isPlainObject(body)) return { ok: false, error: 'the body must be a JSON object' };
  const title = checkTitle(body.title);
  if (!title.ok) return title;
  return { ok: true, value: { title: title.value } };
}

/** The body of PATCH /todos/:id: any of `{ title, done }`, nothing else. */
function validateTodoPatch(body) {
  if (!isPlainObject(body)) return { ok: false, error: 'the body must be a JSON object' };
  const unknown = Object.keys(body).filter((k) => !PATCH_FIELDS.has(k));
  if (unknown.length > 0) return { ok: false, error: `unknown field(s): ${unknown.join(', ')}` };
  const patch = {};
  if ('title' in body) {
    const title = checkTitle(body.title);
    if (!title.ok) return title;
    patch.title = title.value;
  }
  if ('done' in body) {
    if (typeof body.done !== 'boolean') return { ok: false, error: 'done must be true or false' };
    patch.done = body.done;
  }
  return { ok: true, value: patch };
}

module.exports = { MAX_TITLE_LENGTH, validateNewTodo, validateTodoPatch };
