import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import { runPipeline, type StageRecord } from '../../../src/core/pipelineRun/pipelineRun';
import { renderStageTranscript, stageTranscriptFile, writeStageTranscript } from '../../../src/core/pipelineRun/stageTranscript';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { readRunLock } from '../../../src/core/store/runLock';
import { block, QueueModel } from '../authoring/authoringFixture';
import { GREETING, greetingAtVerification } from '../verification/greetingRepo';
import { autopilotPorts } from './autopilotPorts';

// Issue 34, item 4: "keeps a transcript per stage". Each stage a pipeline run went through leaves
// `transcripts/run-<stage>.md` in the spec directory (a folder no loom step declares or fingerprints).

delete process.env.NODE_TEST_CONTEXT;

const record = (over: Partial<StageRecord> = {}): StageRecord => ({
  stage: 'planning',
  work: 'draft',
  startedAt: '2026-12-04T21:00:00.000Z',
  ms: 2345,
  rounds: 2,
  tokens: 1234,
  wrote: ['plan.md', 'tasks/T1.md'],
  transcript: ['/plan: drafting with the model (round 1)', 'The model said: two tasks\nT1 then T2'],
  ...over,
});

test('the transcript says what the stage did: time, rounds, estimated tokens, what it wrote, then each line', () => {
  const text = renderStageTranscript(record(), 'autopilot', 'specs/2026-12-04+csv');
  assert.match(text, /^# Pipeline run: planning\n/);
  for (const line of ['- Spec: specs/2026-12-04+csv', '- Mode: autopilot', '- Work: draft', '- Time: 2.3 s', '- Rounds: 2', '- Estimated tokens: 1234', '- Wrote: plan.md, tasks/T1.md']) {
    assert.ok(text.includes(`${line}\n`), line);
  }
  // A line of several lines stays one list item.
  assert.ok(text.includes('- The model said: two tasks\n  T1 then T2\n'), text);
});

test('a stage name is one safe file name under transcripts/', () => {
  assert.equal(stageTranscriptFile('code-review-request'), 'transcripts/run-code-review-request.md');
  assert.equal(stageTranscriptFile('../x/y'), 'transcripts/run-.._x_y.md');
});

test('written atomically under the run lock: no temporary file stays, no lock stays, a second run rewrites it whole', () => {
  const r = greetingAtVerification();
  try {
    const spec = new LoomRepository(r.root).get(GREETING)!.snapshot;
    assert.equal(writeStageTranscript(spec, record(), 'supervised'), 'transcripts/run-planning.md');
    writeStageTranscript(spec, record({ rounds: 1, transcript: ['again'] }), 'supervised');
    assert.deepEqual(readdirSync(r.path(`${GREETING}/transcripts`)), ['run-planning.md']);
    const text = r.read(`${GREETING}/transcripts/run-planning.md`);
    assert.match(text, /- Rounds: 1\n/);
    assert.doesNotMatch(text, /drafting with the model/);
    assert.equal(readRunLock(spec.dir), undefined);
  } finally {
    r.dispose();
  }
});

test('a run leaves one transcript per stage it went through, with what it asked the model and what the model said', async () => {
  const r = greetingAtVerification();
  try {
    const spec = new LoomRepository(r.root).get(GREETING)!;
    const review = '# Code review request: greeting\n\n## Summary\n\nGreets a person by name (REQ-001).\n\n## Verification\n\nverify-report.md: PASS.\n';
    const ports = autopilotPorts(spec, async () => new QueueModel([`I reviewed the diff.\n\n${block({ path: 'review-request.md', content: review })}`]));
    const stop = await runPipeline(spec, ports);
    assert.equal(stop.reason, 'review-gate', stop.message);
    assert.deepEqual(
      stop.stages.map((s) => s.file),
      ['transcripts/run-verification.md', 'transcripts/run-code-review-request.md', 'transcripts/run-review-gate.md'],
    );
    const drafted = r.read(`${GREETING}/transcripts/run-code-review-request.md`);
    assert.match(drafted, /Asked the model: \d+ message\(s\), about \d+ tokens; 1 file\(s\) proposed/);
    assert.match(drafted, /The model said: I reviewed the diff\.\n/);
    assert.match(drafted, /- Wrote: review-request\.md, handoffs\/code-review-request\.json/);
    assert.match(r.read(`${GREETING}/transcripts/run-review-gate.md`), /At the review gate/);
    assert.ok(existsSync(r.path(`${GREETING}/transcripts/run-verification.md`)));
  } finally {
    r.dispose();
  }
});
