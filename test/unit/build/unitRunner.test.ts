import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';

const REPO = resolve(__dirname, '../../..');

test("the unit runner runs a folder's top-level after hooks once its files' tests are all done, not when the queue first runs dry", () => {
  const tmp = mkdtempSync(join(tmpdir(), 'loom-runner-'));
  try {
    const folder = join(tmp, 'unit', 'group');
    mkdirSync(folder, { recursive: true });
    const log = join(tmp, 'order.log');
    // a's test ends before b is imported: Node then runs the root's after hooks (Test.postRun in
    // lib/internal/test_runner/test.js), here a's cleanup, before b's test, unless the runner holds the queue.
    writeFileSync(
      join(folder, 'a.test.ts'),
      [
        "import { appendFileSync } from 'node:fs';",
        "import { after, test } from 'node:test';",
        "after(() => appendFileSync(process.env.ORDER_LOG!, 'after a\\n'));",
        "test('a', () => appendFileSync(process.env.ORDER_LOG!, 'test a\\n'));",
      ].join('\n'),
    );
    writeFileSync(
      join(folder, 'b.test.ts'),
      ["import { appendFileSync } from 'node:fs';", "import { test } from 'node:test';", "test('b', () => appendFileSync(process.env.ORDER_LOG!, 'test b\\n'));"].join('\n'),
    );
    const r = spawnSync(process.execPath, [join(REPO, 'scripts/run-unit-tests.mjs'), join(tmp, 'unit')], {
      cwd: REPO,
      encoding: 'utf8',
      // Without NODE_TEST_CONTEXT: set by the runner around this test, it makes the inner `node --test` run nothing.
      env: { ...process.env, NODE_TEST_CONTEXT: undefined, ORDER_LOG: log, LOOM_TEST_ISOLATION: '' },
    });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.deepEqual(readFileSync(log, 'utf8').trim().split('\n'), ['test a', 'test b', 'after a']);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
