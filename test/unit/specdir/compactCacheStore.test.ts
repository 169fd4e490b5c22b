import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { CompactCacheStore, compactFileText, parseCompactFile } from '../../../src/core/specdir/compactCacheStore';

const scratch = mkdtempSync(join(tmpdir(), 'loom-compact-cache-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
let n = 0;
const fileIn = () => join(scratch, `run-${n++}`, 'status', 'repo.txt');

describe('CompactCacheStore', () => {
  it('keeps every entry in one file, written once by save(), read back by the next store', () => {
    const file = fileIn();
    const first = new CompactCacheStore(file);
    assert.equal(first.read('a'), undefined, 'no file yet');
    first.write('a', 'header\n{"stage":"planning"}');
    first.write('b', '两行\n中文的结果');
    first.write('c', '');
    assert.throws(() => statSync(file), /ENOENT/, 'nothing written before save()');
    first.save();
    const next = new CompactCacheStore(file);
    assert.equal(next.read('a'), 'header\n{"stage":"planning"}');
    assert.equal(next.read('b'), '两行\n中文的结果', 'lengths count UTF-16 units, as the text had them');
    assert.equal(next.read('c'), '');
    assert.equal(next.read('d'), undefined);
  });

  it('writes nothing when no entry changed, and only the touched entries when asked to prune', () => {
    const file = fileIn();
    const first = new CompactCacheStore(file);
    for (const key of ['a', 'b', 'c']) first.write(key, `text of ${key}`);
    first.save();
    const written = readFileSync(file, 'utf8');
    writeFileSync(file, written); // a stamp to compare
    const before = statSync(file).mtimeMs;
    const same = new CompactCacheStore(file);
    same.read('a');
    same.write('b', 'text of b');
    same.save();
    assert.equal(statSync(file).mtimeMs, before, 'the same text again is no change');
    const pruning = new CompactCacheStore(file);
    pruning.read('a');
    pruning.write('c', 'new text of c');
    pruning.save({ prune: true });
    assert.deepEqual(
      [...parseCompactFile(readFileSync(file, 'utf8'))],
      [
        ['a', 'text of a'],
        ['c', 'new text of c'],
      ],
    );
  });

  it('writes a file larger than its chunks whole, entries with Chinese and line breaks included, as compactFileText has it', () => {
    const file = fileIn();
    const store = new CompactCacheStore(file);
    const entries: [string, string][] = Array.from({ length: 300 }, (_, i) => [`spec-${i}.status`, `{"unmet":["尚未批准 ${i}"]}\n${'x'.repeat(900 + i)}`]);
    for (const [key, text] of entries) store.write(key, text);
    store.save();
    const written = readFileSync(file, 'utf8');
    assert.ok(written.length > 4 * 64 * 1024, 'several chunks');
    assert.equal(written, compactFileText(entries));
    assert.deepEqual([...parseCompactFile(written)], entries);
  });

  it('reads a damaged file as far as it reads: a truncated one, a wrong length, another format or another file', () => {
    const whole = compactFileText([
      ['k1', 'one\ntwo'],
      ['k2', 'three'],
      ['k3', 'four'],
    ]);
    assert.deepEqual([...parseCompactFile(whole)].length, 3);
    assert.deepEqual([...parseCompactFile(whole.slice(0, whole.indexOf('three') + 2)).keys()], ['k1'], 'truncated in the second entry');
    assert.deepEqual([...parseCompactFile(whole.replace('k2\t5', 'k2\t7')).keys()], ['k1'], 'a length that does not end on a line');
    assert.deepEqual([...parseCompactFile(whole.replace('k2\t5', 'k2\tfive')).keys()], ['k1']);
    assert.equal(parseCompactFile(whole.replace('cache 1', 'cache 0')).size, 0, 'another format');
    assert.equal(parseCompactFile('{"format":1}').size, 0, 'another file');
    assert.equal(parseCompactFile('').size, 0);
    assert.equal(parseCompactFile(undefined).size, 0);
  });

  it('refuses a key that would break the file, and never throws when the file cannot be written', () => {
    const store = new CompactCacheStore(fileIn());
    assert.throws(() => store.write('a\tb', 'x'), /tab or a line break/);
    assert.throws(() => store.write('a\nb', 'x'), /tab or a line break/);
    // A file where its folder should be: the store stays usable, only slower next time.
    const blocked = join(scratch, `blocked-${n++}`);
    writeFileSync(blocked, 'not a folder');
    const unwritable = new CompactCacheStore(join(blocked, 'status', 'repo.txt'));
    unwritable.write('a', 'x');
    assert.doesNotThrow(() => unwritable.save());
    assert.equal(unwritable.read('a'), 'x');
  });
});
