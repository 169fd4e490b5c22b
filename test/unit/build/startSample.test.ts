import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';

// scripts/start.js is a CommonJS script: `npm start` runs it with node.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { prepareSample } = require('../../../scripts/start.js') as { prepareSample: (o: { sample: string; play: string; fresh?: boolean }) => { made: boolean; outdated: boolean } };

const SAMPLE = resolve(__dirname, '../../../sample');
const TAGS_STATE = 'specs/2026-11-28+tags/pipeline.state.json';

test('npm start plays on a copy of sample/ that it keeps, renews on --fresh, and never writes sample/', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'loom-start-'));
  try {
    const sample = join(tmp, 'sample');
    cpSync(SAMPLE, sample, { recursive: true });
    const play = join(tmp, 'state', 'sample');
    const committed = readFileSync(join(sample, TAGS_STATE), 'utf8');

    assert.deepEqual(prepareSample({ sample, play }), { made: true, outdated: false });
    assert.equal(readFileSync(join(play, TAGS_STATE), 'utf8'), committed);
    // Playing: an Advance rewrites the copy's state file.
    writeFileSync(join(play, TAGS_STATE), committed.replace('"brainstorming"', '"detail-expansion"'));
    assert.deepEqual(prepareSample({ sample, play }), { made: false, outdated: false }, 'the next start opens the copy as it was left');
    assert.match(readFileSync(join(play, TAGS_STATE), 'utf8'), /detail-expansion/);
    assert.equal(readFileSync(join(sample, TAGS_STATE), 'utf8'), committed, 'sample/ is untouched');

    writeFileSync(join(sample, 'README.md'), 'a newer sample\n');
    assert.deepEqual(prepareSample({ sample, play }), { made: false, outdated: true }, 'a changed sample/ is noticed');
    assert.deepEqual(prepareSample({ sample, play, fresh: true }), { made: true, outdated: false });
    assert.equal(readFileSync(join(play, TAGS_STATE), 'utf8'), committed, '--fresh starts over');
    assert.equal(readFileSync(join(play, 'README.md'), 'utf8'), 'a newer sample\n');

    // Its own git repository, so that git stops there (Create Worktree makes its branch in the copy).
    if (spawnSync('git', ['--version']).status === 0) {
      assert.ok(existsSync(join(play, '.git')));
      const top = spawnSync('git', ['rev-parse', '--show-toplevel'], { cwd: play, encoding: 'utf8' }).stdout.trim();
      assert.equal(resolve(top), resolve(play));
      assert.equal(spawnSync('git', ['status', '--porcelain'], { cwd: play, encoding: 'utf8' }).stdout, '', 'the sample is its first commit');
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
