import assert from 'node:assert/strict';
import { test } from 'node:test';
import { threadClock } from '../../../src/host/threadClock';

test("the thread's clock counts the time this thread ran, and is undefined where Linux's schedstat is missing", () => {
  const before = threadClock();
  if (process.platform !== 'linux') {
    assert.equal(before, undefined);
    return;
  }
  assert.ok(before && before.runMs > 0 && before.waitMs >= 0, JSON.stringify(before));
  // Busy for a moment: the run time grows (the kernel updates it at each tick, so by some ms).
  const until = performance.now() + 50;
  while (performance.now() < until);
  const after = threadClock()!;
  assert.ok(after.runMs > before.runMs, `${after.runMs} > ${before.runMs}`);
  assert.ok(after.waitMs >= before.waitMs);
});
