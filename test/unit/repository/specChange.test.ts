import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { SPEC, state, TempRepo } from '../../helpers/tempRepo';

/** The spec at brainstorming, and how many times its views were told since. */
function specAt(r: TempRepo) {
  r.write(`${SPEC}/pipeline.state.json`, state('brainstorming'));
  r.write(`${SPEC}/spec.md`, '# Login');
  const spec = new LoomRepository(r.root).load().get(SPEC)!;
  let told = 0;
  spec.onDidChange(() => told++);
  return { spec, heard: () => told };
}

test('a change of the spec: its writes are read once after it and the views told once, however many files it wrote', () => {
  const r = new TempRepo();
  try {
    const { spec, heard } = specAt(r);
    const seen = spec.change((current) => {
      writeFileSync(join(spec.snapshot.dir, 'notes-a.md'), 'a\n');
      const mid = current().files.has('notes-a.md');
      writeFileSync(join(spec.snapshot.dir, 'notes-b.md'), 'b\n');
      return mid;
    });
    assert.equal(seen, true, 'current() gives the files as they are within the change');
    assert.equal(heard(), 1, 'told once');
    assert.ok(spec.snapshot.files.has('notes-b.md'), 'read after the change');
  } finally {
    r.dispose();
  }
});

test('a change that fails halfway is read and told all the same, and its error thrown', () => {
  const r = new TempRepo();
  try {
    const { spec, heard } = specAt(r);
    assert.throws(
      () =>
        spec.change(() => {
          writeFileSync(join(spec.snapshot.dir, 'notes.md'), 'half\n');
          throw new Error('the handoff was refused');
        }),
      /the handoff was refused/,
    );
    assert.equal(heard(), 1);
    assert.ok(spec.snapshot.files.has('notes.md'));
  } finally {
    r.dispose();
  }
});
