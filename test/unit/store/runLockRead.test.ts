import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { processIsAlive, readRunLock, RUN_LOCK_FILE } from '../../../src/core/store/runLock';

const root = mkdtempSync(join(tmpdir(), 'loom-lock-'));
after(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
const lockWith = (content: string) => {
  const dir = join(root, `spec-${n++}`);
  mkdirSync(dir);
  writeFileSync(join(dir, RUN_LOCK_FILE), content);
  return readRunLock(dir);
};

/** The pid of a process that has already exited. */
const deadPid = (() => {
  const child = spawnSync(process.execPath, ['-e', '']);
  assert.equal(child.status, 0);
  return child.pid!;
})();
const NEVER_A_PID = 999_999_999; // above Linux's pid_max

describe('readRunLock', () => {
  it('is undefined when there is no lock', () => {
    assert.equal(readRunLock(join(root, 'no-such-spec')), undefined);
  });

  it("reads loom's own format, pid / started_at / token, held by a live process", () => {
    const raw = `${process.pid}\n2026-11-21T08:00:00.000Z\n3f2a9c1d8e7b6a5f`;
    assert.deepEqual(lockWith(raw), { pid: process.pid, stale: false, raw });
  });

  it('tells a lock held for a whole task run by its token, which loom never reads', () => {
    const raw = `${process.pid}\n2026-11-21T08:00:00.000Z\nrun-3f2a9c1d8e7b6a5f`;
    assert.deepEqual(lockWith(raw), { pid: process.pid, stale: false, raw, run: true });
  });

  it("reads loom's format with a dead holder as stale", () => {
    const raw = `${NEVER_A_PID}\n2026-11-21T08:00:00.000Z\n3f2a9c1d8e7b6a5f`;
    assert.deepEqual(lockWith(raw), { pid: NEVER_A_PID, stale: true, raw });
  });

  it('reads a bare pid, with or without a newline', () => {
    assert.deepEqual(lockWith(`${process.pid}`), { pid: process.pid, stale: false, raw: `${process.pid}` });
    assert.deepEqual(lockWith(` ${process.pid}\n`), { pid: process.pid, stale: false, raw: ` ${process.pid}\n` });
  });

  it('reads JSON with a pid, as a number or a numeric string', () => {
    const raw = JSON.stringify({ pid: process.pid, started_at: '2026-11-21T08:00:00.000Z' });
    assert.deepEqual(lockWith(raw), { pid: process.pid, stale: false, raw });
    assert.equal(lockWith(JSON.stringify({ pid: String(process.pid) }))!.stale, false);
  });

  it('treats the pid of an exited process as stale', () => {
    assert.deepEqual(lockWith(`${deadPid}`), { pid: deadPid, stale: true, raw: `${deadPid}` });
    assert.equal(lockWith(JSON.stringify({ pid: deadPid }))!.stale, true);
  });

  it('treats garbage as a stale lock with pid 0', () => {
    for (const raw of ['', '   \n', 'not a pid', '{"owner": "ci"}', '{"pid": null}', '{"pid": true}', '{"pid": [42]}', '{"pid": "abc"}', '0', '-5', '12.5', '{"pid": -1}', 'null', '[]']) {
      assert.deepEqual(lockWith(raw), { pid: 0, stale: true, raw }, JSON.stringify(raw));
    }
  });

  it('does not take a boolean pid for pid 1', () => {
    assert.equal(lockWith('{"pid": true}')!.pid, 0);
  });
});

describe('processIsAlive', () => {
  it('knows this process is alive and an exited one is not', () => {
    assert.equal(processIsAlive(process.pid), true);
    assert.equal(processIsAlive(deadPid), false);
    assert.equal(processIsAlive(NEVER_A_PID), false);
  });
});
