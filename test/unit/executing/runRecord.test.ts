import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { after, test } from 'node:test';
import { CorruptStateError } from '../../../src/core/errors';
import type { StateStorePort } from '../../../src/core/pipeline/machineTypes';
import { runRecorder, withRunMetadata } from '../../../src/core/pipeline/effects/runRecord';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { SpecPipeline } from '../../../src/core/repository/specPipeline';
import { loadSpec } from '../../../src/core/specdir/loadSpec';
import { readRunLock } from '../../../src/core/store/runLock';
import { MemoryTranscriptStore } from '../../../src/core/executing/transcripts/transcriptStore';
import { TempRepo } from '../../helpers/tempRepo';
import { executingFixture, implementerDone, PASS, REPORT_PASS, SPEC } from './helpers/executingFixture';
import { collectEvents, FakePrompts, FakeTestRunner } from './helpers/fakes';
import { ScriptedModels } from './helpers/scriptedChatModel';

// Issue 45: what a run of the executing stage keeps in pipeline.state.json (its mode, its tokens,
// its breakers, the test reporter's progress) is an effect of the spec's actor, written through
// the actor's store under the lock the run's request holds, with the request's now.

const NOW = '2026-11-25T09:59:30.000Z';
const repos: TempRepo[] = [];
after(() => repos.forEach((r) => r.dispose()));

test('Run Tasks: the run’s mode and tokens are written by the spec’s actor through its store, holding the run lock, with the request’s now; the rest of the state is as it was', async () => {
  const { repo, specDir } = executingFixture();
  repos.push(repo);
  const before = repo.json(`${SPEC}/pipeline.state.json`);
  const base = new LoomRepository(repo.root).load().get(SPEC)!;
  const real = base.actor.getSnapshot().context.store;
  const writes: { pid?: number; now: string }[] = [];
  const store: StateStorePort = {
    ...real,
    updateState: (facts, change, now) => {
      writes.push({ pid: readRunLock(facts.dir)?.pid, now });
      return real.updateState(facts, change, now);
    },
    writeState: () => assert.fail('a run writes the state only through updateState, read afresh under the lock'),
  };
  const spec = new SpecPipeline(loadSpec(repo.root, specDir), base.definition, { store });
  const models = new ScriptedModels();
  models.script('implementer', ...implementerDone('T1'), ...implementerDone('T2'));
  models.script('reviewer', PASS, PASS);
  models.script('test-reporter', REPORT_PASS);
  let t = Date.parse('2026-11-25T10:00:00.000Z');
  const clock = { now: () => new Date((t += 1000)), setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms), clearTimeout: (h: unknown) => clearTimeout(h as NodeJS.Timeout) };
  const run = {
    worktree: repo.root,
    models,
    prompts: new FakePrompts(),
    transcripts: new MemoryTranscriptStore(),
    testRunner: new FakeTestRunner(),
    clock,
    onEvent: collectEvents().listener,
    settings: { trusted: true, testCommand: 'npm test' },
    signal: new AbortController().signal,
  };

  const answer = await spec.request({ type: 'runTasks', run }, { confirm: true, now: NOW });

  assert.equal(answer.kind, 'changed', JSON.stringify(answer));
  assert.equal(answer.kind === 'changed' && answer.result?.outcome, 'completed');
  // The mode when it starts, the tokens after each request and when it ends.
  assert.ok(writes.length >= 3, `${writes.length} writes`);
  assert.deepEqual(
    writes.filter((w) => w.pid !== process.pid || w.now !== NOW),
    [],
    'every write holds the lock and carries the request’s time',
  );
  const written = repo.json(`${SPEC}/pipeline.state.json`);
  assert.equal(written.updated_at, NOW);
  assert.equal(written.metadata.executing_mode.mode, 'direct');
  // The run's own values keep the run's times (its clock's, after the request).
  assert.match(written.metadata.executing_mode.chosen_at, /^2026-11-25T10:00:0\d\.000Z$/);
  assert.ok(written.metadata.token_usage.total.input > 0);
  const { metadata: _m1, updated_at: _u1, ...rest1 } = written;
  const { metadata: _m0, updated_at: _u0, ...rest0 } = before;
  assert.deepEqual(rest1, rest0, 'only the metadata and the time changed');
  spec.dispose();
  base.dispose();
});

test('the run’s keys are set, removed when undefined, and every other key of the metadata is kept, with the request’s now', () => {
  const { repo, specDir } = executingFixture();
  repos.push(repo);
  const state = repo.json(`${SPEC}/pipeline.state.json`);
  repo.write(`${SPEC}/pipeline.state.json`, { ...state, metadata: { drift_baseline: { commit: 'abc' }, circuit_breaker: { task: 'T1' } } });
  const fresh = loadSpec(repo.root, specDir);
  const next = withRunMetadata(fresh, { circuit_breaker: undefined, executing_mode: { mode: 'subagent', triggers: [], chosen_at: 'then' } }, NOW);
  assert.deepEqual(next?.metadata, { drift_baseline: { commit: 'abc' }, executing_mode: { mode: 'subagent', triggers: [], chosen_at: 'then' } });
  assert.equal(next?.updated_at, NOW);
  assert.equal(next?.current_stage, 'executing');
});

test('a spec without a state gets none from a run; a corrupt state is named and left untouched; a run without its request’s time is a bug said plainly', () => {
  const { repo, specDir } = executingFixture();
  repos.push(repo);
  const store = new LoomRepository(repo.root).load().get(SPEC)!.actor.getSnapshot().context.store;
  const facts = loadSpec(repo.root, specDir);
  assert.throws(() => runRecorder(store, facts, undefined, 'Run Tasks')({ executing_mode: { mode: 'direct', triggers: [], chosen_at: 'x' } }), /Run Tasks ended without the time/);

  repo.write(`${SPEC}/pipeline.state.json`, '{ "current_stage": "executing",');
  assert.throws(() => runRecorder(store, facts, NOW, 'Run Tasks')({ token_usage: undefined }), CorruptStateError);
  assert.equal(repo.read(`${SPEC}/pipeline.state.json`), '{ "current_stage": "executing",');

  rmSync(repo.path(`${SPEC}/pipeline.state.json`));
  runRecorder(store, facts, NOW, 'Run Tasks')({ executing_mode: { mode: 'direct', triggers: [], chosen_at: 'x' } });
  assert.equal(existsSync(repo.path(`${SPEC}/pipeline.state.json`)), false);
});
