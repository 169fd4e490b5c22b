import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { displayLanguage, setDisplayLanguage, type Language } from '../../../src/core/messages';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { lookAtSpec } from '../../../src/core/repository/specLook';
import type { SpecLookMessage, SpecLookRequest } from '../../../src/core/repository/specLookProtocol';
import { lookInWorker } from '../../../src/core/repository/specLooks';
import { findSpecDirs } from '../../../src/core/specdir/loadSpec';
import { RUN_LOCK_FILE } from '../../../src/core/store/runLock';
import { FIXTURE_SPEC, scratchRepos } from '../specdir/cacheFixtures';

const { scratch, copyRepo } = scratchRepos('loom-looks-');

/** A copy of the fixture repository with a second spec whose pipeline.state.json is cut off. */
function repoWithCorruptSpec(): string {
  const repo = copyRepo();
  const broken = join(repo, 'specs/2026-11-21+broken');
  mkdirSync(broken, { recursive: true });
  writeFileSync(join(broken, 'spec.md'), '# Broken\n');
  writeFileSync(join(broken, 'pipeline.state.json'), '{"current_stage": "planning", ');
  return repo;
}

async function runLooks(request: SpecLookRequest): Promise<{ messages: SpecLookMessage[]; outcome: { completed: boolean; error?: Error } }> {
  const messages: SpecLookMessage[] = [];
  const run = lookInWorker(request, (m) => messages.push(m));
  return { messages, outcome: await run.finished };
}

/** What a look in this thread finds, in `language`. */
function lookHere(repo: string, dir: string, language: Language) {
  const before = displayLanguage();
  setDisplayLanguage(language);
  try {
    return lookAtSpec(new LoomRepository(repo), dir, language, undefined, () => assert.fail('no part of the look fails on the fixtures'));
  } finally {
    setDisplayLanguage(before);
  }
}

for (const language of ['en', 'zh'] as const) {
  test(`the worker finds what a look in this thread finds, spec by spec (${language}), a corrupt state file included`, async () => {
    const repo = repoWithCorruptSpec();
    const dirs = findSpecDirs(repo, ['specs', 'qa']);
    assert.ok(dirs.includes(join(repo, FIXTURE_SPEC)) && dirs.length >= 2);
    const { messages, outcome } = await runLooks({ root: repo, specRoots: ['specs', 'qa'], language, dirs });
    assert.deepEqual(outcome, { completed: true });
    const looks = messages.filter((m) => m.kind === 'look');
    assert.deepEqual(
      looks.map((m) => m.dir),
      dirs,
      // A worker that died says why in its `abandoned` messages: they are in the failure's text.
      `every spec is looked at once, in the order asked (the other messages: ${JSON.stringify(messages.filter((m) => m.kind !== 'look'))})`,
    );
    for (const m of looks) assert.deepEqual(m.evaluation, lookHere(repo, m.dir, language), m.dir);
    const broken = looks.find((m) => m.dir.endsWith('+broken'))!;
    assert.ok(
      broken.evaluation.diagnostics.some((d) => d.file.endsWith('pipeline.state.json') && d.severity === 'error'),
      'the cut-off state file is a Problems entry',
    );
    assert.equal(messages.at(-1)?.kind, 'done');
  });
}

test('the worker keeps its looks in the caches: a second run over unchanged specs reads every evaluation from them', async () => {
  const repo = repoWithCorruptSpec();
  const dirs = findSpecDirs(repo, ['specs', 'qa']);
  const cache = { dir: join(scratch, 'cache-store'), version: 'test-1' };
  // A file changed within two seconds of a look may change again within its timestamp tick: the
  // caches keep no look that read one (evaluationCache's RACY_MS). The copy is let age first.
  await new Promise((r) => setTimeout(r, 2_100));
  const first = await runLooks({ root: repo, specRoots: ['specs', 'qa'], language: 'en', dirs, cache });
  const done1 = first.messages.at(-1);
  assert.ok(done1?.kind === 'done' && done1.evaluations);
  assert.equal(done1.evaluations.misses, dirs.length);
  const second = await runLooks({ root: repo, specRoots: ['specs', 'qa'], language: 'en', dirs, cache });
  const done2 = second.messages.at(-1);
  assert.ok(done2?.kind === 'done' && done2.evaluations);
  assert.equal(done2.evaluations.rejected, 0);
  assert.deepEqual(
    second.messages.filter((m) => m.kind === 'look').map((m) => m.kind === 'look' && m.evaluation),
    first.messages.filter((m) => m.kind === 'look').map((m) => m.kind === 'look' && m.evaluation),
  );
  // The fixture spec holds a run lock: whether its holder lives is no file's to say, so its look is never kept.
  assert.ok(existsSync(join(repo, FIXTURE_SPEC, RUN_LOCK_FILE)));
  assert.deepEqual([done2.evaluations.hits, done2.evaluations.misses], [dirs.length - 1, 1], 'no other unchanged spec is evaluated again');
});

test('the worker runs at the lowest priority, and tells the CPU time it used', { skip: process.platform !== 'linux' && 'priorities are per thread on Linux only' }, async () => {
  const repo = copyRepo();
  const dirs = findSpecDirs(repo, ['specs', 'qa']);
  const { messages } = await runLooks({ root: repo, specRoots: ['specs', 'qa'], language: 'en', dirs });
  const done = messages.at(-1);
  assert.ok(done?.kind === 'done');
  assert.equal(done.background, true, 'raising its own nice value is allowed to any process');
  assert.ok(typeof done.cpuMs === 'number' && done.cpuMs > 0, `the CPU time it used: ${done.cpuMs}`);
});

test('stopped, the worker says nothing more and the run ends as not completed', async () => {
  const repo = copyRepo();
  const dirs = findSpecDirs(repo, ['specs', 'qa']);
  const messages: SpecLookMessage[] = [];
  const run = lookInWorker({ root: repo, specRoots: ['specs', 'qa'], language: 'en', dirs }, (m) => messages.push(m));
  run.stop();
  assert.deepEqual(await run.finished, { completed: false });
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(messages.length, 0);
});

test('a spec with a file larger than the worker parses is left to the caller, and the others are looked at', async () => {
  const repo = copyRepo();
  const huge = join(repo, 'specs/2026-11-29+huge');
  mkdirSync(huge, { recursive: true });
  writeFileSync(join(huge, 'spec.md'), '# Huge\n');
  // Over the worker's 1 MB: bigger files could outgrow its heap inside one JSON.parse, which V8 cannot stop.
  const behaviors = Array.from({ length: 20_000 }, (_, i) => ({ id: `REQ-001-B${i}`, description: 'x'.repeat(120), acceptance: ['y'.repeat(40)] }));
  writeFileSync(join(huge, 'requirements.json'), JSON.stringify({ requirements: [{ id: 'REQ-001', behaviors }] }));
  const dirs = findSpecDirs(repo, ['specs', 'qa']);
  const { messages, outcome } = await runLooks({ root: repo, specRoots: ['specs', 'qa'], language: 'en', dirs });
  assert.deepEqual(outcome, { completed: true });
  const tooLarge = messages.find((m) => m.kind === 'tooLarge');
  assert.ok(tooLarge?.kind === 'tooLarge');
  assert.deepEqual([tooLarge.dir, tooLarge.file], [huge, 'specs/2026-11-29+huge/requirements.json']);
  assert.ok(tooLarge.bytes > 2 ** 20);
  assert.deepEqual(
    messages.filter((m) => m.kind === 'look').map((m) => m.kind === 'look' && m.dir),
    dirs.filter((d) => d !== huge),
  );
});

test('the worker passes over the specs it is told were looked at meanwhile, and says nothing of them', async () => {
  const repo = repoWithCorruptSpec();
  const dirs = findSpecDirs(repo, ['specs', 'qa']);
  const [taken, ...rest] = dirs;
  const messages: SpecLookMessage[] = [];
  const run = lookInWorker({ root: repo, specRoots: ['specs', 'qa'], language: 'en', dirs }, (m) => messages.push(m));
  run.skip([taken]);
  assert.deepEqual(await run.finished, { completed: true });
  assert.deepEqual(
    messages.filter((m) => m.kind === 'look').map((m) => m.kind === 'look' && m.dir),
    rest,
  );
});

test('a worker that runs out of memory on a spec costs that spec alone: it is left to the caller, and a new worker looks at the specs after it', async () => {
  const repo = copyRepo();
  const huge = join(repo, 'specs/2026-11-29+huge');
  mkdirSync(huge, { recursive: true });
  writeFileSync(join(huge, 'spec.md'), '# Huge\n');
  // Under the worker's 1 MB, but 15,000 behaviors fill a small heap.
  const behaviors = Array.from({ length: 15_000 }, (_, i) => ({ id: `REQ-001-B${i}`, description: 'd', acceptance: ['a'] }));
  writeFileSync(join(huge, 'requirements.json'), JSON.stringify({ requirements: [{ id: 'REQ-001', behaviors }] }));
  const after = join(repo, 'specs/2026-11-30+after');
  mkdirSync(after, { recursive: true });
  writeFileSync(join(after, 'spec.md'), '# After\n');
  const dirs = findSpecDirs(repo, ['specs', 'qa']);
  assert.deepEqual(dirs.slice(-2), [huge, after], 'the spec after the huge one is looked at last');
  const messages: SpecLookMessage[] = [];
  const run = lookInWorker({ root: repo, specRoots: ['specs', 'qa'], language: 'en', dirs }, (m) => messages.push(m), { heap: { oldSpaceMb: 32, semiSpaceMb: 1 } });
  assert.deepEqual(await run.finished, { completed: true });
  const abandoned = messages.filter((m) => m.kind === 'abandoned');
  assert.deepEqual(
    abandoned.map((m) => m.kind === 'abandoned' && m.dir),
    [huge],
  );
  assert.match(abandoned[0].kind === 'abandoned' ? abandoned[0].message : '', /memory/);
  assert.deepEqual(
    messages.filter((m) => m.kind === 'look').map((m) => m.kind === 'look' && m.dir),
    dirs.filter((d) => d !== huge),
  );
});

test('a worker that keeps stopping ends the run with its error once the restarts are spent', async () => {
  const repo = copyRepo();
  for (const name of ['2026-11-28+huge-a', '2026-11-29+huge-b']) {
    const dir = join(repo, 'specs', name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'spec.md'), '# Huge\n');
    const behaviors = Array.from({ length: 15_000 }, (_, i) => ({ id: `REQ-001-B${i}`, description: 'd', acceptance: ['a'] }));
    writeFileSync(join(dir, 'requirements.json'), JSON.stringify({ requirements: [{ id: 'REQ-001', behaviors }] }));
  }
  const dirs = findSpecDirs(repo, ['specs', 'qa']);
  const messages: SpecLookMessage[] = [];
  const run = lookInWorker({ root: repo, specRoots: ['specs', 'qa'], language: 'en', dirs }, (m) => messages.push(m), {
    restarts: 1,
    heap: { oldSpaceMb: 32, semiSpaceMb: 1 },
  });
  const outcome = await run.finished;
  assert.equal(outcome.completed, false);
  assert.match(outcome.error?.message ?? '', /memory/);
  assert.deepEqual(
    messages.filter((m) => m.kind === 'abandoned').map((m) => m.kind === 'abandoned' && m.dir),
    [join(repo, 'specs/2026-11-28+huge-a')],
  );
});
