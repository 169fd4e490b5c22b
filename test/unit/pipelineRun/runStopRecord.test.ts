import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { RunStop } from '../../../src/core/pipelineRun/pipelineRun';
import { currentStop, RunStopsFile, stateFacts, waitsForPerson, type RunStopRecord } from '../../../src/core/pipelineRun/runStopRecord';
import { request } from '../../../src/core/port/request';
import { LoomRepository } from '../../../src/core/repository/loomRepository';

// Issue 44, defect 7: every view of a run follows the spec's files as they change. A stop is kept
// with the state it is about (so a reload still says "waiting for you since 14:02"), and it is
// the spec's stop only while pipeline.state.json still says the same.

delete process.env.NODE_TEST_CONTEXT;

const TAGS = 'specs/2026-11-28+tags';

function sampleCopy() {
  const root = mkdtempSync(join(tmpdir(), 'loom-stops-'));
  cpSync(join(__dirname, '../../../sample'), root, { recursive: true });
  return { root, dir: join(root, TAGS), cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

const STOP: RunStop = {
  reason: 'approval-gate',
  stage: 'brainstorming',
  message: 'brainstorming is ready for your approval',
  stages: [{ stage: 'brainstorming', work: 'draft', startedAt: '2026-12-01T14:02:00.000Z', ms: 12, rounds: 0, tokens: 0, wrote: [], transcript: ['a line'] }],
};

test('a stop holds while the state says the same; a checkout that moved it, a corrupt state, or an approval ends it', async () => {
  const s = sampleCopy();
  try {
    const repo = () => new LoomRepository(s.root).get(TAGS)!;
    const spec = repo();
    const facts = stateFacts(spec.stage, spec.snapshot)!;
    assert.deepEqual(facts, { stage: 'brainstorming', updatedAt: '2026-11-28T06:10:00.000Z' });
    const record: RunStopRecord = { dir: s.dir, mode: 'autopilot', at: '2026-12-01T14:02:00.000Z', state: facts, stop: STOP };
    assert.equal(currentStop(record, stateFacts(repo().stage, repo().snapshot)), record, 'nothing changed: still the spec’s stop');

    // Another file of the spec changed (the person edits spec.md): the state is the same, the stop holds.
    writeFileSync(join(s.dir, 'spec.md'), `${readFileSync(join(s.dir, 'spec.md'), 'utf8')}\nOne more line.\n`);
    assert.equal(currentStop(record, stateFacts(repo().stage, repo().snapshot)), record);

    const stateFile = join(s.dir, 'pipeline.state.json');
    const original = readFileSync(stateFile, 'utf8');
    // As `git checkout` leaves it: another stage, another updated_at.
    writeFileSync(stateFile, JSON.stringify({ ...JSON.parse(original), current_stage: 'detail-expansion', updated_at: '2026-11-29T08:00:00.000Z' }, null, 2));
    assert.equal(currentStop(record, stateFacts(repo().stage, repo().snapshot)), undefined);
    // The same stage written again later (a recover, a checkout of another commit): not the state the run stopped at either.
    writeFileSync(stateFile, JSON.stringify({ ...JSON.parse(original), updated_at: '2026-11-30T08:00:00.000Z' }, null, 2));
    assert.equal(currentStop(record, stateFacts(repo().stage, repo().snapshot)), undefined);
    // A state that does not parse: its stage is unknown, so nothing waits "at brainstorming".
    writeFileSync(stateFile, '{ "current_stage": "brainst');
    assert.equal(repo().stage, null);
    assert.equal(stateFacts(repo().stage, repo().snapshot), undefined);
    assert.equal(currentStop(record, stateFacts(repo().stage, repo().snapshot)), undefined);
    // Back as it was (checked out again): the same files, the same stop.
    writeFileSync(stateFile, original);
    assert.equal(currentStop(record, stateFacts(repo().stage, repo().snapshot)), record);

    // The person approves: the spec moved on, the stop is over.
    const approved = await request(repo(), { type: 'approve', compressionConfirmed: true }, { confirm: true });
    assert.equal(approved.kind, 'changed');
    assert.equal(currentStop(record, stateFacts(repo().stage, repo().snapshot)), undefined);
  } finally {
    s.cleanup();
  }
});

test('the stops file keeps one stop per spec across instances (a reload); a missing or unreadable file is none', () => {
  const storage = mkdtempSync(join(tmpdir(), 'loom-stops-storage-'));
  try {
    assert.deepEqual(new RunStopsFile(storage).list(), []);
    const a: RunStopRecord = { dir: '/w/specs/a', mode: 'autopilot', at: '2026-12-01T14:02:00.000Z', state: { stage: 'brainstorming', updatedAt: null }, stop: STOP };
    const b: RunStopRecord = { ...a, dir: '/w/specs/b', at: '2026-12-01T15:00:00.000Z', mode: 'supervised', stop: { ...STOP, reason: 'missing-input', file: 'requirements.json' } };
    const first = new RunStopsFile(storage);
    first.put(a);
    first.put(b);
    first.put({ ...a, at: '2026-12-01T16:00:00.000Z' });
    const reloaded = new RunStopsFile(storage);
    assert.deepEqual(
      reloaded.list().map((r) => [r.dir, r.at]),
      [
        ['/w/specs/a', '2026-12-01T16:00:00.000Z'],
        ['/w/specs/b', '2026-12-01T15:00:00.000Z'],
      ],
    );
    assert.deepEqual(reloaded.get('/w/specs/b'), b);
    reloaded.forget('/w/specs/a');
    assert.deepEqual(
      new RunStopsFile(storage).list().map((r) => r.dir),
      ['/w/specs/b'],
    );
    writeFileSync(join(storage, 'pipeline-stops.json'), '[{"dir": 1}, ');
    assert.deepEqual(new RunStopsFile(storage).list(), []);
  } finally {
    rmSync(storage, { recursive: true, force: true });
  }
});

test('what waits for the person: every stop but the end of the pipeline and a Stop they pressed', () => {
  assert.equal(waitsForPerson('approval-gate'), true);
  assert.equal(waitsForPerson('model-error'), true);
  assert.equal(waitsForPerson('error'), true);
  assert.equal(waitsForPerson('done'), false);
  assert.equal(waitsForPerson('stopped'), false);
});
