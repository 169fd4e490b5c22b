import assert from 'node:assert/strict';
import { readlinkSync } from 'node:fs';
import { getPriority } from 'node:os';
import { basename, resolve } from 'node:path';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';

const MODULE = resolve(__dirname, '../../../src/core/threads/backgroundPriority.ts');

/** Runs lowerThreadPriority in a worker thread: what it returned, and the priorities of that thread and of this one after it. */
function inWorker(): Promise<{ lowered: boolean; worker: number; tid: number }> {
  const source = `
    require('tsx/cjs/api').register();
    const { parentPort } = require('node:worker_threads');
    const { lowerThreadPriority } = require(${JSON.stringify(MODULE)});
    const lowered = lowerThreadPriority();
    const tid = process.platform === 'linux' ? Number(require('node:path').basename(require('node:fs').readlinkSync('/proc/thread-self'))) : 0;
    parentPort.postMessage({ lowered, tid, worker: tid ? require('node:os').getPriority(tid) : 0 });`;
  return new Promise((done, fail) => {
    const w = new Worker(source, { eval: true });
    w.once('message', (m) => {
      done(m);
      void w.terminate();
    });
    w.once('error', fail);
  });
}

test(
  'a background worker runs at the lowest priority on Linux, and the rest of the process keeps its own',
  { skip: process.platform !== 'linux' && 'thread priorities are lowered on Linux only' },
  async () => {
    const mainTid = Number(basename(readlinkSync('/proc/thread-self')));
    const before = getPriority(mainTid);
    const r = await inWorker();
    assert.equal(r.lowered, true);
    assert.equal(r.worker, 19);
    assert.notEqual(r.tid, mainTid);
    assert.equal(getPriority(mainTid), before, 'the calling thread is not lowered');
    assert.equal(getPriority(process.pid), before, 'nor the process');
  },
);
