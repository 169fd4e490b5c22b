'use strict';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Reads the `dueDate` of a request body (REQ-001).
 *   undefined  → { ok: true, present: false }              the field was not sent: keep what is stored
 *   null       → { ok: true, present: true, value: null }  clear the due date
 *   'YYYY-MM-DD' of a real calendar day → { ok: true, present: true, value }
 *   anything else → { ok: false, error }
 */
function parseDueDate(input) {
  if (input === undefined) return { ok: true, present: false };
  if (input === null) return { ok: true, present: true, value: null };
  if (typeof input !== 'string') return { ok: false, error: 'dueDate 必须是 YYYY-MM-DD 格式的字符串或 null' };
  const m = DATE.exec(input.trim());
  if (!m) return { ok: false, error: `dueDate "${input}" 不是 YYYY-MM-DD 格式` };
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return { ok: false, error: `dueDate "${input}" 不是真实存在的日期` };
  }
  return { ok: true, present: true, value: `${m[1]}-${m[2]}-${m[3]}` };
}

module.exports = { parseDueDate };
