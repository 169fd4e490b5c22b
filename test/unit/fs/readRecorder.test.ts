import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { inputAt, namesIn, readTextRecorded, recordReads } from '../../../src/core/fs/readRecorder';
import { readTextOnce } from '../../../src/core/fs/requestReads';

const dir = mkdtempSync(join(tmpdir(), 'loom-read-recorder-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('recordReads', () => {
  it('reads text as readFileSync does, whatever its size and however its characters fall on the read buffer, and records each file’s stamp', () => {
    // The recorder reads into a buffer of 64 KB, grown for larger files.
    const files = {
      'empty.md': '',
      'small.json': '{"task_id":"T1","status":"done"}',
      'chinese.md': '任务：'.repeat(30_000), // three bytes a character: characters straddle 64 KB
      'large.md': `${'x'.repeat(64 * 1024 - 1)}é${'y'.repeat(200_000)}`,
      'bom.md': '\ufeff# Spec',
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const recorded = recordReads(() => Object.keys(files).map((name) => [readFileSync(join(dir, name), 'utf8'), readFileSync(join(dir, name), { encoding: 'utf8' })]));
    Object.keys(files).forEach((name, i) => {
      const expected = readFileSync(join(dir, name), 'utf8');
      assert.equal(recorded.value[i][0], expected, name);
      assert.equal(recorded.value[i][1], expected, name);
      assert.deepEqual(recorded.inputs.get(join(dir, name)), inputAt(join(dir, name)), name);
    });
    assert.equal(recorded.unrecorded, false);
  });

  it('readTextRecorded (what readTextOnce reads through) records its read while recording, throws readFileSync’s errors, and reads plainly outside', () => {
    writeFileSync(join(dir, 'direct.json'), '{"a":1}');
    const missing = join(dir, 'direct-missing.json');
    const recorded = recordReads(() => {
      let code: string | undefined;
      try {
        readTextRecorded(missing);
      } catch (e) {
        code = (e as NodeJS.ErrnoException).code;
      }
      return [readTextOnce(join(dir, 'direct.json')), code];
    });
    assert.deepEqual(recorded.value, ['{"a":1}', 'ENOENT']);
    assert.deepEqual(recorded.inputs.get(join(dir, 'direct.json')), inputAt(join(dir, 'direct.json')));
    assert.deepEqual(recorded.inputs.get(missing), { kind: 'missing' });
    assert.equal(readTextRecorded(join(dir, 'direct.json')), '{"a":1}');
  });

  it('throws what readFileSync throws, and records a missing file and a folder read as a file', () => {
    mkdirSync(join(dir, 'folder'), { recursive: true });
    const missing = join(dir, 'missing.json');
    const codes = recordReads(() =>
      [missing, join(dir, 'folder')].map((p) => {
        try {
          readFileSync(p, 'utf8');
          return 'read';
        } catch (e) {
          return (e as NodeJS.ErrnoException).code;
        }
      }),
    );
    assert.deepEqual(codes.value, ['ENOENT', 'EISDIR']);
    assert.deepEqual(codes.inputs.get(missing), { kind: 'missing' });
    assert.equal(codes.inputs.get(join(dir, 'folder'))?.kind, 'dir');
  });

  it('records a listed folder’s names from the listing itself, sorted, with its times, as strings or as Dirents', () => {
    const folder = join(dir, 'tasks');
    mkdirSync(folder, { recursive: true });
    for (const name of ['T2.md', 'T10.md', 'T1.md']) writeFileSync(join(folder, name), name);
    const stat = inputAt(folder);
    for (const list of [() => readdirSync(folder), () => readdirSync(folder, { withFileTypes: true }).map((d) => d.name), () => readdirSync(folder, 'utf8')]) {
      const recorded = recordReads(list);
      assert.deepEqual([...recorded.value].sort(), namesIn(folder));
      assert.deepEqual(recorded.inputs.get(folder), { ...stat, names: namesIn(folder) });
    }
    // Listed recursively, a folder is recorded by its own names (a change deeper is its sub-folder's to tell).
    mkdirSync(join(folder, 'sub'), { recursive: true });
    const recursive = recordReads(() => readdirSync(folder, { recursive: true }));
    assert.deepEqual((recursive.inputs.get(folder) as { names: string[] }).names, namesIn(folder));
  });

  it('leaves a read of bytes, or with a flag, to readFileSync itself, recorded as before', () => {
    writeFileSync(join(dir, 'bytes.bin'), Buffer.from([0xff, 0x00, 0x41]));
    const recorded = recordReads(() => [
      readFileSync(join(dir, 'bytes.bin')),
      readFileSync(join(dir, 'bytes.bin'), { encoding: 'latin1' }),
      readFileSync(join(dir, 'bytes.bin'), { encoding: 'utf8', flag: 'r+' }),
    ]);
    assert.deepEqual(recorded.value[0], Buffer.from([0xff, 0x00, 0x41]));
    assert.equal(recorded.value[1], '\u00ff\u0000A');
    assert.deepEqual(recorded.inputs.get(join(dir, 'bytes.bin')), inputAt(join(dir, 'bytes.bin')));
  });
});
