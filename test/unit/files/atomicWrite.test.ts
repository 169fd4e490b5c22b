import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { toJsonText, writeFileAtomic } from '../../../src/core/fs/atomicWrite';
import { sha256OfFile } from '../../../src/core/fs/sha256';

const root = mkdtempSync(join(tmpdir(), 'loom-atomic-'));
after(() => rmSync(root, { recursive: true, force: true }));

describe('writeFileAtomic', () => {
  it('creates the file and its folders, leaving no temporary file', () => {
    const target = join(root, 'a', 'task-states', 'T1.state.json');
    writeFileAtomic(target, '{"task_id": "T1"}\n');
    assert.equal(readFileSync(target, 'utf8'), '{"task_id": "T1"}\n');
    assert.deepEqual(readdirSync(join(root, 'a', 'task-states')), ['T1.state.json']);
  });

  it('replaces existing content entirely, leaving no temporary file', () => {
    const dir = join(root, 'b');
    mkdirSync(dir);
    const target = join(dir, 'pipeline.state.json');
    writeFileSync(target, 'x'.repeat(10_000));
    writeFileAtomic(target, '短\n');
    assert.equal(readFileSync(target, 'utf8'), '短\n');
    for (let n = 0; n < 20; n++) writeFileAtomic(target, `${n}\n`);
    assert.equal(readFileSync(target, 'utf8'), '19\n');
    assert.deepEqual(readdirSync(dir), ['pipeline.state.json']);
  });

  it('leaves the old content and no temporary file when the rename fails', () => {
    const dir = join(root, 'c');
    mkdirSync(join(dir, 'occupied'), { recursive: true });
    writeFileSync(join(dir, 'occupied', 'inside'), 'keep');
    assert.throws(() => writeFileAtomic(join(dir, 'occupied'), 'new'));
    assert.deepEqual(readdirSync(dir), ['occupied']);
    assert.equal(readFileSync(join(dir, 'occupied', 'inside'), 'utf8'), 'keep');
  });

  it('throws, and writes nothing, into a folder it cannot write', { skip: process.getuid?.() === 0 ? 'root can write anywhere' : false }, () => {
    const dir = join(root, 'd');
    mkdirSync(dir);
    chmodSync(dir, 0o500);
    try {
      assert.throws(() => writeFileAtomic(join(dir, 'x.json'), '{}'));
      assert.deepEqual(readdirSync(dir), []);
    } finally {
      chmodSync(dir, 0o700);
    }
  });
});

describe('toJsonText', () => {
  it('writes JSON as loom does: two spaces and a trailing newline, non-ASCII kept', () => {
    assert.equal(toJsonText({ a: [1, { b: '中文' }] }), '{\n  "a": [\n    1,\n    {\n      "b": "中文"\n    }\n  ]\n}\n');
  });
});

describe('sha256OfFile', () => {
  it('hashes the bytes of a file, and gives undefined for a missing one', () => {
    const file = join(root, 'evidence.log');
    writeFileSync(file, 'abc');
    assert.equal(sha256OfFile(file), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    assert.equal(sha256OfFile(join(root, 'missing.log')), undefined);
  });
});
