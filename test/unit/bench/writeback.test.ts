import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { unwrittenMB, waitForWriteback } from '../../../bench/writeback';

// The editor benchmark waits on this before each round's windows: read wrongly (a unit, a field
// name), it would either never wait or always wait its full minute.
test('the memory waiting to be written is read from /proc/meminfo, in MB', { skip: !existsSync('/proc/meminfo') }, () => {
  const mb = unwrittenMB();
  assert.equal(typeof mb, 'number');
  assert.ok(mb! >= 0 && mb! < 1024 * 1024, `${mb} MB`);
});

test('waiting for the writeback returns at once when nothing is known or nothing is left, and gives up after its limit', async () => {
  assert.equal(await waitForWriteback(undefined), 0);
  if (unwrittenMB() === undefined) return;
  const quick = await waitForWriteback(Number.MAX_SAFE_INTEGER);
  assert.ok(quick < 250, `${quick} ms`);
  // Never back under a negative level: it waits its limit (at least), then returns.
  const capped = await waitForWriteback(-1e9, 0, 300);
  assert.ok(capped >= 300, `${capped} ms`);
});
