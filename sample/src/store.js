'use strict';

/**
 * In-memory todo store. Every method returns copies, so callers can never change a stored todo
 * behind the store's back. Ids are consecutive numbers as strings and are never reused.
 */
class TodoStore {
  #todos = new Map();
  #nextId = 1;
  #now;

  constructor({ now = () => new Date() } = {}) {
    this.#now = now;
  }

  /** Stores a new todo from already validated fields (at least `title`). */
  create(fields) {
    const todo = { ...fields, id: String(this.#nextId++), done: false, createdAt: this.#now().toISOString() };
    this.#todos.set(todo.id, todo);
    return { ...todo };
  }

  /** Every todo, in creation order. */
  list() {
    return [...this.#todos.values()].map((todo) => ({ ...todo }));
  }

  get(id) {
    const todo = this.#todos.get(id);
    return todo ? { ...todo } : undefined;
  }

  /** Applies an already validated patch; undefined when there is no such todo. */
  update(id, patch) {
    const todo = this.#todos.get(id);
    if (!todo) return undefined;
    const updated = { ...todo, ...patch, id: todo.id, createdAt: todo.createdAt };
    this.#todos.set(id, updated);
    return { ...updated };
  }

  /** True when the todo existed and was removed. */
  remove(id) {
    return this.#todos.delete(id);
  }

  get size() {
    return this.#todos.size;
  }
}

module.exports = { TodoStore };
