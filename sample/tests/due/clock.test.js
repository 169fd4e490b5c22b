'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { createClock } = require('../../src/due/clock');

const at = (iso) => () => new Date(iso);

test('REQ-002-B04 “今天”按 APP_TZ 时区的日历日计算', () => {
  assert.equal(createClock({ timeZone: 'UTC', now: at('2026-11-30T20:00:00Z') }).today(), '2026-11-30');
  assert.equal(createClock({ timeZone: 'Asia/Shanghai', now: at('2026-11-30T20:00:00Z') }).today(), '2026-12-01');
  assert.equal(createClock({ timeZone: 'America/Los_Angeles', now: at('2026-12-01T07:00:00Z') }).today(), '2026-11-30');
});

test('REQ-002-B04 未配置 APP_TZ 时使用 UTC', () => {
  const saved = process.env.APP_TZ;
  delete process.env.APP_TZ;
  try {
    assert.equal(createClock({ now: at('2026-11-30T23:59:59Z') }).timeZone, 'UTC');
  } finally {
    if (saved !== undefined) process.env.APP_TZ = saved;
  }
});

test('REQ-002-B05 非法的 APP_TZ 在创建时钟时报错', () => {
  assert.throws(() => createClock({ timeZone: 'Mars/Olympus' }), /APP_TZ "Mars\/Olympus"/);
});
