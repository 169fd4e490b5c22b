/**
 * A first status run reads its files on a second thread, ahead of the main thread (readAhead.ts,
 * readAheadWorker.ts), and the recorder answers the main thread's reads and listings from what it
 * read (readRecorder.ts `withReadAhead`): the texts and the records are those of reading the disk
 * at the moment the other thread did, so a file changed since shows a newer stamp next time.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { generateRepository } from '../../../bench/generateRepository';
import { ReadAhead } from '../../../src/core/fs/readAhead';
import { folderEntries, recordReads, unchangedInput, withReadAhead, type SpecReadAhead } from '../../../src/core/fs/readRecorder';
import { FOLDERS_LISTED, FOLDERS_READ, findSpecDirs } from '../../../src/core/specdir/loadSpec';

const work = mkdtempSync(join(tmpdir(), 'loom-read-ahead-'));
after(() => rmSync(work, { recursive: true, force: true }));

describe('the recorder, with files and folders read ahead', () => {
  const spec = join(work, 'spec');
  mkdirSync(join(spec, 'tasks'), { recursive: true });
  writeFileSync(join(spec, 'spec.md'), '# now');
  writeFileSync(join(spec, 'tasks/T1.md'), 'T1');
  const aheadOf = (): SpecReadAhead => ({
    // What the other thread found a moment ago: an older text and stamp, and a folder without T2.md yet.
    files: new Map([[join(spec, 'spec.md'), { text: '# then', size: 6, mtimeMs: 1000, ctimeMs: 1000 }]]),
    folders: new Map([
      [spec, { path: spec, mtimeMs: 2000, ctimeMs: 2000, names: ['tasks', 'spec.md'], subfolders: ['tasks'] }],
      [join(spec, 'tasks'), { path: join(spec, 'tasks'), mtimeMs: 3000, ctimeMs: 3000, names: ['T1.md'], subfolders: [] }],
    ]),
  });

  it('answers a text read with what was read ahead, recorded with the stamp it had then, so the next run sees the change', () => {
    const recorded = recordReads(() => withReadAhead(aheadOf(), () => readFileSync(join(spec, 'spec.md'), 'utf8')));
    assert.equal(recorded.value, '# then');
    assert.deepEqual(recorded.inputs.get(join(spec, 'spec.md')), { kind: 'file', size: 6, mtimeMs: 1000, ctimeMs: 1000 });
    assert.equal(unchangedInput(join(spec, 'spec.md'), recorded.inputs.get(join(spec, 'spec.md'))!), false, 'the file on disk is newer');
    // A file that was not read ahead is read here, as before.
    const own = recordReads(() => withReadAhead(aheadOf(), () => readFileSync(join(spec, 'tasks/T1.md'), 'utf8')));
    assert.equal(own.value, 'T1');
    assert.equal(unchangedInput(join(spec, 'tasks/T1.md'), own.inputs.get(join(spec, 'tasks/T1.md'))!), true);
  });

  it('reads the file here when something here looked at it first: a stamp taken after the other thread’s read does not go with its text', () => {
    const path = join(spec, 'spec.md');
    const recorded = recordReads(() =>
      withReadAhead(aheadOf(), () => {
        statSync(path);
        return readFileSync(path, 'utf8');
      }),
    );
    assert.equal(recorded.value, '# now');
    assert.equal(unchangedInput(path, recorded.inputs.get(path)!), true);
    // Read twice under the same stamp, it is the text read ahead both times.
    const twice = recordReads(() => withReadAhead(aheadOf(), () => [readFileSync(path, 'utf8'), readFileSync(path, 'utf8')]));
    assert.deepEqual(twice.value, ['# then', '# then']);
  });

  it('answers a listing of names, and of entries with their kinds, with the folder’s times and names as they were read ahead', () => {
    writeFileSync(join(spec, 'tasks/T2.md'), 'T2'); // added after the other thread listed the folder
    const recorded = recordReads(() => withReadAhead(aheadOf(), () => ({ names: readdirSync(join(spec, 'tasks')), entries: folderEntries(spec) })));
    assert.deepEqual(recorded.value.names, ['T1.md']);
    assert.deepEqual(recorded.value.entries, [
      { name: 'tasks', folder: true },
      { name: 'spec.md', folder: false },
    ]);
    assert.deepEqual(recorded.inputs.get(join(spec, 'tasks')), { kind: 'dir', mtimeMs: 3000, ctimeMs: 3000, names: ['T1.md'] });
    assert.deepEqual(recorded.inputs.get(spec), { kind: 'dir', mtimeMs: 2000, ctimeMs: 2000, names: ['spec.md', 'tasks'] });
    assert.equal(unchangedInput(join(spec, 'tasks'), recorded.inputs.get(join(spec, 'tasks'))!), false, 'T2.md shows next time');
  });

  it('lists the folder here when something here looked at it first (its times and the names read ahead would not go together), or when asked for file types', () => {
    const tasks = join(spec, 'tasks');
    const recorded = recordReads(() =>
      withReadAhead(aheadOf(), () => {
        statSync(tasks);
        return {
          names: readdirSync(tasks).sort(),
          typed: readdirSync(spec, { withFileTypes: true })
            .map((e) => e.name)
            .sort(),
        };
      }),
    );
    assert.deepEqual(recorded.value.names, readdirSync(tasks).sort());
    assert.deepEqual(recorded.value.typed, readdirSync(spec).sort());
    assert.deepEqual((recorded.inputs.get(tasks) as { names: string[] }).names, readdirSync(tasks).sort());
  });

  it('is not used outside withReadAhead, nor when not recording', () => {
    assert.equal(recordReads(() => readFileSync(join(spec, 'spec.md'), 'utf8')).value, '# now');
    assert.equal(
      withReadAhead(aheadOf(), () => readFileSync(join(spec, 'spec.md'), 'utf8')),
      '# now',
    );
    assert.deepEqual(
      withReadAhead(aheadOf(), () => folderEntries(spec))
        .map((e) => e.name)
        .sort(),
      readdirSync(spec).sort(),
    );
  });
});

/** Until the thread has sent spec `k` (its start takes a while under tsx, more on a busy machine). */
async function sentUpTo(ahead: ReadAhead, k: number): Promise<void> {
  for (const deadline = Date.now() + 60_000; ahead.sent < k;) {
    assert.ok(Date.now() < deadline, `the thread sent up to spec ${ahead.sent}, not ${k}, in a minute`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('ReadAhead', () => {
  const repo = join(work, 'repo');
  generateRepository(repo, 12, 3);
  const dirs = findSpecDirs(repo);
  // A large file is left to the main thread; a folder loadSpec only lists is listed, not read.
  writeFileSync(join(dirs[2], 'plan.md'), 'x'.repeat(300 * 1024));
  mkdirSync(join(dirs[2], 'evidence'), { recursive: true });
  writeFileSync(join(dirs[2], 'evidence/run.log'), 'ok');
  utimesSync(join(dirs[2], 'evidence/run.log'), new Date(5000), new Date(5000));

  it('hands the main thread each spec’s files and folders as they are on disk, stamps included, in its order, and stops', async () => {
    const ahead = ReadAhead.start(dirs, FOLDERS_READ, FOLDERS_LISTED);
    assert.ok(ahead, 'a thread started');
    try {
      await sentUpTo(ahead, dirs.length - 1);
      let answered = 0;
      for (let k = 0; k < dirs.length; k++) {
        const found = ahead.at(k);
        if (!found) continue; // the main thread then reads that spec itself
        answered++;
        for (const [path, file] of found.files) {
          assert.ok(path.startsWith(`${dirs[k]}/`), path);
          assert.equal(file.text, readFileSync(path, 'utf8'), path);
          const st = statSync(path);
          assert.deepEqual([file.size, file.mtimeMs, file.ctimeMs], [st.size, st.mtimeMs, st.ctimeMs], path);
        }
        const read = [...found.files.keys()].map((p) => p.slice(dirs[k].length + 1)).sort();
        const expected = [
          ...readdirSync(dirs[k], { withFileTypes: true })
            .filter((e) => e.isFile())
            .map((e) => e.name),
          ...FOLDERS_READ.flatMap((f) => {
            try {
              return readdirSync(join(dirs[k], f)).map((n) => `${f}/${n}`);
            } catch {
              return [];
            }
          }),
        ]
          .filter((name) => !(k === 2 && name === 'plan.md'))
          .sort();
        assert.deepEqual(read, expected, `spec ${k}: every file loadSpec reads, the large one left out`);
        for (const [path, folder] of found.folders) {
          assert.deepEqual(folder.names.slice().sort(), readdirSync(path).sort(), path);
          assert.deepEqual(
            folder.subfolders.slice().sort(),
            readdirSync(path, { withFileTypes: true })
              .filter((e) => e.isDirectory())
              .map((e) => e.name)
              .sort(),
            path,
          );
          const st = statSync(path);
          assert.deepEqual([folder.mtimeMs, folder.ctimeMs], [st.mtimeMs, st.ctimeMs], path);
        }
        if (k === 2) {
          assert.ok(found.folders.has(join(dirs[2], 'evidence')), 'evidence is listed');
          assert.ok(!found.files.has(join(dirs[2], 'evidence/run.log')), 'and not read');
        }
      }
      assert.equal(answered, dirs.length, 'the thread had read every spec ahead');
      assert.equal(ahead.at(0), undefined, 'a spec already passed is not handed again');
    } finally {
      ahead.stop();
    }
  });

  it('skips what the main thread reached first, going a few specs past it, and never hands the main thread a spec out of order', async () => {
    const ahead = ReadAhead.start(dirs, FOLDERS_READ, FOLDERS_LISTED)!;
    try {
      // The main thread is on spec 4 before the thread started: it goes on from three specs further.
      assert.equal(ahead.at(4), undefined);
      await sentUpTo(ahead, dirs.length - 1);
      assert.equal(ahead.at(5), undefined, 'left to the main thread');
      assert.equal(ahead.at(6), undefined, 'left to the main thread');
      for (let k = 7; k < dirs.length; k++) {
        const found = ahead.at(k);
        assert.ok(found, `spec ${k}`);
        assert.ok([...found.files.keys()].every((p) => p.startsWith(`${dirs[k]}/`)));
      }
      assert.equal(ahead.at(3), undefined, 'a spec already passed is not handed again');
    } finally {
      ahead.stop();
    }
  });

  it('has each spec read once: the main thread reads what it reached first, and waits for a spec the thread is reading rather than read it again', async () => {
    // Specs enough to pass the thread's lead: the main thread, reading the specs not handed to it as
    // the status run does, then keeps catching up with the thread.
    const many = join(work, 'many');
    generateRepository(many, 80, 8);
    const all = findSpecDirs(many);
    const ahead = ReadAhead.start(all, FOLDERS_READ, FOLDERS_LISTED)!;
    let handed = 0;
    let readHere = 0;
    try {
      await sentUpTo(ahead, 0);
      for (let k = 0; k < all.length; k++) {
        const found = ahead.at(k);
        if (found) {
          handed++;
          assert.ok(
            [...found.files.keys()].every((p) => p.startsWith(`${all[k]}/`)),
            `spec ${k} is the one asked for`,
          );
          continue;
        }
        readHere++;
        for (const name of readdirSync(all[k])) if (name.endsWith('.md') || name.endsWith('.json')) readFileSync(join(all[k], name), 'utf8');
        for (const folder of FOLDERS_READ.map((f) => join(all[k], f)).filter((f) => existsSync(f))) for (const name of readdirSync(folder)) readFileSync(join(folder, name), 'utf8');
      }
      assert.ok(handed > 0, 'the thread read some specs ahead');
      assert.equal(handed + readHere, all.length);
      assert.equal(ahead.specsRead, handed, `the thread read only the ${handed} specs it handed over (${readHere} read by the main thread)`);
    } finally {
      ahead.stop();
    }
  });
});
