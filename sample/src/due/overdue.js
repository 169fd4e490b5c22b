'use strict';

/**
 * Overdue filter and due-date ordering (REQ-002, REQ-003).
 * `today` is a YYYY-MM-DD string from the clock (src/due/clock.js); due dates compare as strings.
 */

/** A todo is overdue when it is not done and its due date is before today (the due day itself is not overdue). */
function isOverdue(todo, today) {
  return !todo.done && typeof todo.dueDate === 'string' && todo.dueDate < today;
}

function filterOverdue(todos, today) {
  return todos.filter((todo) => isOverdue(todo, today));
}

/** Earliest due date first; todos without a due date last; equal dates keep their order. */
function sortByDueDate(todos) {
  return todos.sort((a, b) => {
    if (a.dueDate == null) return b.dueDate == null ? 0 : 1;
    if (b.dueDate == null) return -1;
    return a.dueDate < b.dueDate ? -1 : a.dueDate > b.dueDate ? 1 : 0;
  });
}

module.exports = { isOverdue, filterOverdue, sortByDueDate };
