'use strict';

/**
 * "Today" as a calendar date (YYYY-MM-DD) in one time zone (REQ-002-B04, REQ-002-B05).
 * The zone comes from APP_TZ, default UTC; an unknown zone fails at startup, not per request.
 */
function createClock({ timeZone = process.env.APP_TZ || 'UTC', now = () => new Date() } = {}) {
  let format;
  try {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  } catch {
    throw new RangeError(`APP_TZ "${timeZone}" 不是有效的 IANA 时区`);
  }
  return {
    timeZone,
    today() {
      const parts = Object.fromEntries(format.formatToParts(now()).map((p) => [p.type, p.value]));
      return `${parts.year}-${parts.month}-${parts.day}`;
    },
  };
}

module.exports = { createClock };
