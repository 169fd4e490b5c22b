import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { dirname } from 'node:path';
import { isOwnLockActivity, readRunLock, withRunLock } from '../../../src/core/store/runLock';
import { SPEC, state, TempRepo } from '../../helpers/tempRepo';

function specIn(r: TempRepo) {
  r.write(`${SPEC}/pipeline.state.json`, state('planning'));
  return new LoomRepository(r.root).load().get(SPEC)!.snapshot;
}

test("withRunLock holds .loom-run.lock in loom's format (pid, started_at, token) and removes it afterwards", () => {
  const r = new TempRepo();
  try {
    const lock = r.path(`${SPEC}/.loom-run.lock`);
    const [seen, read] = withRunLock(specIn(r), () => [readFileSync(lock, 'utf8'), readRunLock(dirname(lock))] as const);
    const [pid, startedAt, token, ...rest] = seen.split('\n');
    // What loom's SpecLock._readLock parses: parseInt of the first line, then started_at and token.
    assert.equal(Number.parseInt(pid, 10), process.pid);
    assert.ok(!Number.isNaN(Date.parse(startedAt)), startedAt);
    assert.match(token, /^[0-9a-f]{16}$/);
    assert.deepEqual(rest, []);
    assert.deepEqual(read, { pid: process.pid, stale: false, raw: seen });
    assert.equal(existsSync(lock), false);
  } finally {
    r.dispose();
  }
});

test('withRunLock leaves a lock that someone else took over in the meantime (token mismatch), as loom does', () => {
  const r = new TempRepo();
  try {
    const lock = r.path(`${SPEC}/.loom-run.lock`);
    const theirs = `${process.pid}\n2026-11-29T10:00:00.000Z\nffffffffffffffff`;
    withRunLock(specIn(r), () => writeFileSync(lock, theirs));
    assert.equal(readFileSync(lock, 'utf8'), theirs);
  } finally {
    r.dispose();
  }
});

test('the lock this process holds, or let go of a moment ago, is its own activity; another file or spec is not', () => {
  const r = new TempRepo();
  try {
    const spec = specIn(r);
    const lock = r.path(`${SPEC}/.loom-run.lock`);
    assert.equal(isOwnLockActivity(spec.dir, lock), false, 'never held here');
    withRunLock(spec, () => assert.equal(isOwnLockActivity(spec.dir, lock), true, 'held now'));
    assert.equal(isOwnLockActivity(spec.dir, lock), true, 'just let go');
    assert.equal(isOwnLockActivity(spec.dir, `${lock}.1a2b3c4d.stale`), true, 'a stale lock moved aside');
    assert.equal(isOwnLockActivity(spec.dir, r.path(`${SPEC}/plan.md`)), false, 'a spec file is a change');
    assert.equal(isOwnLockActivity(spec.dir, lock, 0), false, 'not after the moment has passed');
  } finally {
    r.dispose();
  }
});

test('taking over a stale lock removes the temporary files its dead holder left mid-write, and nobody else’s', () => {
  const r = new TempRepo();
  try {
    const spec = specIn(r);
    const dead = 999_999_999;
    r.write(`${SPEC}/.loom-run.lock`, `${dead}\n2026-11-29T10:00:00.000Z\nrun-abc`);
    // Killed between writing and renaming (writeFileAtomic's names), in the spec and below it.
    const left = [`${SPEC}/task-states/.T1.state.json.${dead}.1764400000000.k2j4h1.tmp`, `${SPEC}/.progress.md.${dead}.1764400000001.a1b2c3.tmp`];
    for (const f of left) r.write(f, '{"half":');
    // A live writer's file is about to be renamed; a file named like it by a person is theirs.
    const live = `${SPEC}/handoffs/.T2.json.${process.pid}.1764400000002.zz9zz9.tmp`;
    r.write(live, '{}');
    r.write(`${SPEC}/notes.tmp`, 'mine');
    withRunLock(spec, () => undefined);
    for (const f of left) assert.equal(existsSync(r.path(f)), false, f);
    assert.equal(existsSync(r.path(live)), true);
    assert.equal(existsSync(r.path(`${SPEC}/notes.tmp`)), true);
  } finally {
    r.dispose();
  }
});
