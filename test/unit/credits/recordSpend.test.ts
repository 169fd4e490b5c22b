import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { DraftingCount } from '../../../src/core/credits/draftingSpend';
import type { StateStorePort } from '../../../src/core/pipeline/machineTypes';
import { request } from '../../../src/core/port/request';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { SpecPipeline } from '../../../src/core/repository/specPipeline';
import { loadSpec } from '../../../src/core/specdir/loadSpec';
import { readRunLock } from '../../../src/core/store/runLock';
import { writePipelineState } from '../../../src/core/store/stateStore';
import { plannedSpec, SPEC, state, TempRepo } from '../../helpers/tempRepo';

// Issue 45: keeping a drafting turn's spend is an intent of the spec's actor, sent through the one
// funnel; its write is the machine's effect, under the request's run lock, with the request's now.

const NOW = '2026-12-07T16:30:00.000Z';

/** Priced by VS Code at 1 credit a token (languageModelPricing): the credits are the tokens. */
const PRICED = { id: 'drafter-model', family: 'drafter-model', vendor: 'test', price: { input: 1e6, output: 1e6, cachedInput: 1e6 } };

const spendOf = (over: Partial<DraftingCount> = {}): DraftingCount => ({
  stage: 'planning',
  model: PRICED,
  requests: [
    { input: 10, output: 5 },
    { input: 20, output: 7 },
  ],
  ...over,
});

const specIn = (r: TempRepo) => new LoomRepository(r.root).load().get(SPEC)!;

test('recordSpend adds the turn to the ledger of pipeline.state.json (role drafter, its stage) with the request’s now; the rest of the state is loom’s as it was', async () => {
  const r = new TempRepo();
  try {
    const earlier = { total: { input: 100, output: 0 }, stages: { brainstorming: { input: 100, output: 0 } }, roles: { drafter: { input: 100, output: 0 } }, credits: { total: 100 } };
    r.write(`${SPEC}/pipeline.state.json`, state('planning', { metadata: { token_usage: earlier, drift_baseline: { commit: 'abc' } }, custom_key: 1 }));
    plannedSpec(r);
    const before = r.json(`${SPEC}/pipeline.state.json`);
    const answer = await request(specIn(r), { type: 'recordSpend', spend: spendOf() }, { now: NOW });
    assert.equal(answer.kind, 'changed', JSON.stringify(answer));
    if (answer.kind !== 'changed') return;
    assert.deepEqual(answer.spend, { input: 30, output: 12, credits: 42, model: 'drafter-model' });
    assert.equal(answer.kept, true);
    assert.deepEqual([answer.from, answer.to], ['planning', 'planning']);

    const written = r.json(`${SPEC}/pipeline.state.json`);
    const usage = written.metadata.token_usage;
    assert.equal(usage.updated_at, NOW, 'the ledger’s time is the request’s');
    assert.equal(written.updated_at, NOW, 'so is the state’s');
    assert.deepEqual(usage.total, { input: 130, output: 12 });
    assert.deepEqual(usage.stages.planning, { input: 30, output: 12 });
    assert.deepEqual(usage.roles.drafter, { input: 130, output: 12 });
    assert.deepEqual(usage.requests.drafter, { count: 2, output: 12 });
    assert.equal(usage.credits.total, 142);
    assert.equal(usage.credits.stages.planning, 42);
    assert.match(usage.credits.prices['drafter-model'], /VS Code/);
    assert.deepEqual(answer.state?.metadata.token_usage, usage, 'the answer carries the state as written');
    // Only the ledger and the time changed.
    const { metadata: m1, updated_at: _u1, ...rest1 } = written;
    const { metadata: m0, updated_at: _u0, ...rest0 } = before;
    assert.deepEqual(rest1, rest0);
    assert.deepEqual(m1.drift_baseline, m0.drift_baseline);
    assert.ok(!existsSync(r.path(`${SPEC}/.loom-run.lock`)), 'the lock is released');
  } finally {
    r.dispose();
  }
});

test('recordSpend writes through the actor’s store while the request holds the spec’s run lock', async () => {
  const r = new TempRepo();
  try {
    r.write(`${SPEC}/pipeline.state.json`, state('planning'));
    plannedSpec(r);
    const held: (number | undefined)[] = [];
    const writeOnly = {
      writeState: (facts, s, now) => {
        held.push(readRunLock(facts.dir)?.pid);
        writePipelineState(facts, s, now);
      },
    } as Partial<StateStorePort> as StateStorePort;
    const spec = new SpecPipeline(loadSpec(r.root, r.path(SPEC)), specIn(r).definition, { store: writeOnly });
    const answer = await spec.request({ type: 'recordSpend', spend: spendOf() }, { now: NOW });
    assert.equal(answer.kind, 'changed', JSON.stringify(answer));
    assert.deepEqual(held, [process.pid], 'written once, holding the lock');
    assert.equal(spec.snapshot.state?.updated_at, NOW, 'the spec read what it wrote');
    spec.dispose();
  } finally {
    r.dispose();
  }
});

test('recordSpend is refused while another process holds the spec’s run lock, naming it; nothing is written', async () => {
  const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
  const r = new TempRepo();
  try {
    r.write(`${SPEC}/pipeline.state.json`, state('planning'));
    r.write(`${SPEC}/.loom-run.lock`, String(sleeper.pid));
    const before = r.read(`${SPEC}/pipeline.state.json`);
    const answer = await request(specIn(r), { type: 'recordSpend', spend: spendOf() }, { now: NOW });
    assert.equal(answer.kind, 'refused');
    assert.equal(answer.kind === 'refused' && answer.code, 'spec-locked');
    assert.equal(answer.kind === 'refused' && answer.holder?.pid, sleeper.pid);
    assert.equal(r.read(`${SPEC}/pipeline.state.json`), before);
  } finally {
    sleeper.kill();
    r.dispose();
  }
});

test('a corrupt pipeline.state.json: recordSpend is refused naming the file, and the file is never written', async () => {
  const r = new TempRepo();
  try {
    r.write(`${SPEC}/pipeline.state.json`, '{ "current_stage": "planning",');
    plannedSpec(r);
    const answer = await request(specIn(r), { type: 'recordSpend', spend: spendOf() }, { now: NOW });
    assert.equal(answer.kind, 'refused', JSON.stringify(answer));
    if (answer.kind !== 'refused') return;
    assert.deepEqual(answer.codes, ['state-unreadable', 'corrupt-file']);
    assert.ok(answer.message.includes(`${SPEC}/pipeline.state.json`), answer.message);
    assert.equal(answer.file, 'pipeline.state.json');
    assert.equal(r.read(`${SPEC}/pipeline.state.json`), '{ "current_stage": "planning",');
  } finally {
    r.dispose();
  }
});

test('a spec without a state: the spend is answered (in tokens for a model without a price), and no state is made for it', async () => {
  const r = new TempRepo();
  try {
    plannedSpec(r);
    const answer = await request(specIn(r), { type: 'recordSpend', spend: spendOf({ model: { id: 'unknown-model', family: 'unknown-model' } }) }, { now: NOW });
    assert.equal(answer.kind, 'changed', JSON.stringify(answer));
    if (answer.kind !== 'changed') return;
    assert.equal(answer.kept, false);
    assert.deepEqual(answer.spend, { input: 30, output: 12, model: 'unknown-model' });
    assert.equal(answer.state, undefined);
    assert.ok(!existsSync(r.path(`${SPEC}/pipeline.state.json`)));
  } finally {
    r.dispose();
  }
});

test('a failed spec keeps what a turn cost too (the spend is a fact, not a move)', async () => {
  const r = new TempRepo();
  try {
    r.write(`${SPEC}/pipeline.state.json`, state('failed'));
    const answer = await request(specIn(r), { type: 'recordSpend', spend: spendOf({ stage: 'failed' }) }, { now: NOW });
    assert.equal(answer.kind, 'changed', JSON.stringify(answer));
    const written = r.json(`${SPEC}/pipeline.state.json`);
    assert.equal(written.current_stage, 'failed');
    assert.equal(written.metadata.token_usage.credits.stages.failed, 42);
  } finally {
    r.dispose();
  }
});
