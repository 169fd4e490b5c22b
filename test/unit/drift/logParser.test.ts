import assert from 'node:assert/strict';
import { it } from 'node:test';
import { logParser, parseLog } from '../../../src/core/drift/driftScan';

// Drift parses git's log as it comes (driftScan.ts logParser), so that little is left when git
// ends: whatever the chunks, the commits are those of the whole output parsed at once.
const RS = '\x1e';
const US = '\x1f';
const record = (hash: string, subject: string, changes: string[]) => `${RS}${hash}${US}${US}${US}Zhang 张${US}2026-12-01T10:00:00Z${US}${subject}\n\0${changes.join('\0')}\0`;
const OUTPUT = [
  record('c3', '重命名 the login', ['R100', 'src/login.ts', 'src/auth/login.ts']),
  record('c2', 'edit', ['M', 'src/login.ts', 'D', 'test/登录.test.ts']),
  record('c1', 'add', ['A', 'src/login.ts']),
].join('');

it('parses the log the same whatever chunks it comes in', () => {
  const whole = parseLog(OUTPUT);
  assert.equal(whole.length, 3);
  for (const size of [1, 2, 3, 7, 16, OUTPUT.length]) {
    const p = logParser();
    for (let i = 0; i < OUTPUT.length; i += size) p.feed(OUTPUT.slice(i, i + size));
    assert.deepEqual(p.end(), whole, `chunks of ${size}`);
  }
});
