import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { getPriority } from 'node:os';
import { resolve } from 'node:path';
import { test } from 'node:test';

const MODULE = resolve(__dirname, '../../../src/core/threads/backgroundPriority.ts');

/** Runs lowerProcessPriority in a child process: what it returned, and the priorities of each of its threads. */
function inChild(): Promise<{ lowered: boolean; threads: number[] }> {
  const source = `
    const { lowerProcessPriority } = require(${JSON.stringify(MODULE)});
    const lowered = lowerProcessPriority();
    const tids = process.platform === 'linux' ? require('node:fs').readdirSync('/proc/self/task').map(Number) : [process.pid];
    process.stdout.write(JSON.stringify({ lowered, threads: tids.map((t) => require('node:os').getPriority(t)) }));`;
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--require', 'tsx/cjs', '-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.once('error', fail);
    child.once('exit', (code) => (code === 0 ? done(JSON.parse(out)) : fail(new Error(`the child exited ${code}`))));
  });
}

test('a background worker process runs at the lowest priority, every thread of it, and the process that started it keeps its own', async () => {
  const before = process.platform === 'linux' ? readdirSync('/proc/self/task').map((t) => getPriority(Number(t))) : [getPriority(process.pid)];
  const r = await inChild();
  assert.equal(r.lowered, true);
  assert.ok(r.threads.length >= 1);
  assert.deepEqual(
    r.threads.filter((p) => p !== 19),
    [],
    'each of its threads is at nice 19',
  );
  const after = process.platform === 'linux' ? readdirSync('/proc/self/task').map((t) => getPriority(Number(t))) : [getPriority(process.pid)];
  assert.deepEqual(after.slice(0, before.length), before, 'this process is not lowered');
});
