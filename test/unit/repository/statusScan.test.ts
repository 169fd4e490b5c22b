/**
 * `scanStatuses` (specStatusCache.ts) shares the specs whose status is not kept out between the
 * main thread and helper threads (statusScanWorker.ts): each spec is evaluated by exactly one
 * thread (ClaimQueue), the statuses come in the order of the spec directories whichever thread
 * evaluated them, and what a helper evaluated is kept in the cache as if the main thread had.
 * With no helper, a thread reads the files ahead of the main thread (readAhead.ts), to the same
 * statuses and the same entries kept. `later`: the files are seconds old, and a clock ten seconds
 * ahead lets the cache keep them (evaluationCache.ts, RACY_MS).
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { generateRepository } from '../../../bench/generateRepository';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import type { SpecStatus } from '../../../src/core/repository/specPipeline';
import { idleHelpers, scanStatuses, specStatus } from '../../../src/core/repository/specStatusCache';
import type { StatusScanMessage, StatusScanRequest } from '../../../src/core/repository/statusScanProtocol';
import { displayLanguage } from '../../../src/core/messages';
import { EvaluationCache, extraInputsAt } from '../../../src/core/specdir/evaluationCache';
import { findSpecDirs } from '../../../src/core/specdir/loadSpec';
import { startBundledWorker } from '../../../src/core/threads/bundledWorker';
import { ClaimQueue } from '../../../src/core/threads/claimQueue';
import { CountingStore, later } from '../specdir/cacheFixtures';

const work = mkdtempSync(join(tmpdir(), 'loom-status-scan-'));
after(() => rmSync(work, { recursive: true, force: true }));

const sample = join(work, 'sample');
cpSync(resolve(__dirname, '../../../sample'), sample, { recursive: true });
const generated = join(work, 'generated');
generateRepository(generated, 30, 3);

test('helper threads take only the cores nobody else uses, one for the main thread, three at most', () => {
  assert.equal(idleHelpers(2, 0.2), 1, 'two idle cores: the main thread and a helper');
  assert.equal(idleHelpers(2, 0.7), 0, 'one of two cores busy: the main thread alone');
  assert.equal(idleHelpers(2, 7), 0, 'a busy machine: never fewer than none');
  assert.equal(idleHelpers(4, 1.2), 2);
  assert.equal(idleHelpers(16, 0), 3);
  assert.equal(idleHelpers(1, 0), 0);
});

test('a claim is final: two owners over one queue take every item once between them', () => {
  const mine = ClaimQueue.create(7);
  const theirs = new ClaimQueue(mine.buffer);
  const taken: number[][] = [[], []];
  for (let turn = 0; ; turn++) {
    const [queue, owner] = turn % 3 === 0 ? [theirs, 2] : [mine, 1];
    const i = queue.next(owner);
    if (i === undefined) break;
    taken[owner - 1].push(i);
  }
  assert.deepEqual([...taken[0], ...taken[1]].sort(), [0, 1, 2, 3, 4, 5, 6]);
  assert.ok(taken[1].length > 0 && taken[0].length > taken[1].length);
  for (const i of taken[1]) assert.equal(mine.ownerOf(i), 2);
  assert.equal(mine.claim(taken[1][0], 1), false, 'a taken item stays its owner’s');
  assert.equal(mine.next(1), undefined, 'nothing is left');
  const fresh = ClaimQueue.create(2);
  assert.equal(fresh.ownerOf(1), 0);
  assert.equal(fresh.claim(1, 3), true);
  assert.equal(new ClaimQueue(fresh.buffer).next(2), 0, 'the other item');
});

for (const [name, root] of [
  ['the sample', sample],
  ['a generated repository', generated],
] as const) {
  test(`on ${name}: helper threads and the main thread alone give the same statuses, in the same order`, async () => {
    const alone = await scanStatuses(new LoomRepository(root), undefined, { helpers: 0 });
    assert.deepEqual(
      alone.map((s) => s.spec_dir),
      findSpecDirs(root).map((d) => d.slice(root.length + 1)),
    );
    assert.deepEqual(await scanStatuses(new LoomRepository(root), undefined, { helpers: 2, specsPerHelper: 1 }), alone);
  });
}

test('a helper thread alone answers every spec it claimed with its status and the entry the cache keeps, which the next scan finds', async () => {
  // Helpers keep what read no file changed within RACY_MS of their real clock: the files age past it.
  await new Promise((r) => setTimeout(r, 2200));
  const dirs = findSpecDirs(generated);
  const claims = ClaimQueue.create(dirs.length);
  const extraInputs = [...extraInputsAt([join(generated, '.loom/workflow.yaml')])];
  const request: StatusScanRequest = { root: generated, specRoots: ['specs', 'qa'], language: displayLanguage(), dirs, extraInputs, claims: claims.buffer, owner: 2, cacheVersion: 'v1' };
  const answers = new Map<number, StatusScanMessage>();
  await new Promise<void>((done, failed) => {
    const worker = startBundledWorker('statusScanWorker', resolve(__dirname, '../../../src/core/repository'), request, {});
    worker.on('message', (m: StatusScanMessage) => answers.set(m.i, m));
    worker.once('error', failed);
    worker.once('exit', () => done());
  });
  assert.equal(answers.size, dirs.length);
  const repository = new LoomRepository(generated);
  for (const [i, answer] of answers) {
    assert.equal(claims.ownerOf(i), 2);
    assert.ok('status' in answer, JSON.stringify(answer));
    assert.deepEqual(
      answer.status,
      specStatus(repository, dirs[i], () => undefined),
    );
    assert.ok(answer.entry, 'kept: the files are older than RACY_MS');
    const header = JSON.parse(answer.entry.slice(0, answer.entry.indexOf('\n')));
    assert.equal(header.dir, dirs[i]);
    assert.equal(header.version, 'v1');
    assert.ok(
      header.inputs.some((i: unknown[]) => i.length === 1 && i[0] === join(generated, '.loom/workflow.yaml')),
      'the workflow, as the main thread found it',
    );
    assert.deepEqual(JSON.parse(answer.entry.slice(answer.entry.indexOf('\n') + 1)), answer.status);
  }
  // Kept on the main thread as the helpers made them: a scan then evaluates nothing.
  const store = new CountingStore();
  const cache = () => new EvaluationCache<SpecStatus>(store, 'v1', { kind: 'status', now: later });
  const keeping = cache();
  for (const [i, answer] of answers) if ('status' in answer) keeping.keepEntry(dirs[i], answer.entry);
  assert.deepEqual(keeping.counts, { hits: 0, misses: dirs.length });
  const next = cache();
  assert.deepEqual(
    await scanStatuses(new LoomRepository(generated), next, { helpers: 0 }),
    [...answers.values()].sort((a, b) => a.i - b.i).map((a) => ('status' in a ? a.status : undefined)),
  );
  assert.deepEqual(next.counts, { hits: dirs.length, misses: 0 }, 'nothing evaluated again');
});

test('statuses evaluated on the main thread and on helpers are all kept, and found by the next scan', async () => {
  const store = new CountingStore();
  const cache = () => new EvaluationCache<SpecStatus>(store, 'v1', { kind: 'status', now: later });
  const first = cache();
  const statuses = await scanStatuses(new LoomRepository(generated), first, { helpers: 2, specsPerHelper: 1 });
  assert.deepEqual(first.counts, { hits: 0, misses: 30 });
  assert.equal(store.files.size, 30, 'one entry per spec');
  const second = cache();
  assert.deepEqual(await scanStatuses(new LoomRepository(generated), second, { helpers: 2, specsPerHelper: 1 }), statuses);
  assert.deepEqual(second.counts, { hits: 30, misses: 0 }, 'nothing evaluated again');
});

test('with the files read ahead on another thread: the same statuses and the same entries kept as reading them here, and a change made after is seen', async () => {
  const repo = join(work, 'read-ahead');
  generateRepository(repo, 40, 3);
  const scan = async (readAhead: boolean) => {
    const store = new CountingStore();
    const cache = new EvaluationCache<SpecStatus>(store, 'v1', { kind: 'status', now: later });
    const statuses = await scanStatuses(new LoomRepository(repo), cache, { helpers: 0, readAhead });
    return { statuses, entries: store.files, store };
  };
  const here = await scan(false);
  const ahead = await scan(true);
  assert.deepEqual(ahead.statuses, here.statuses);
  assert.deepEqual(ahead.entries, here.entries, 'the same files, stamps and listings recorded');
  // A task state and a task file change, and a handoff appears: the entries kept by the read-ahead scan see it.
  const spec = findSpecDirs(repo)[7];
  writeFileSync(join(spec, 'task-states/T1.state.json'), JSON.stringify({ task_id: 'T1', status: 'blocked', retry_count: 3, blocker: 'the API is down' }));
  writeFileSync(join(spec, 'tasks/T2.md'), readFileSync(join(spec, 'tasks/T2.md'), 'utf8').replace(/complexity: \w+/, 'complexity: huge'));
  writeFileSync(join(spec, 'handoffs/executing.json'), '{');
  const fresh = await scanStatuses(new LoomRepository(repo), undefined, { helpers: 0, readAhead: false });
  assert.notDeepEqual(fresh, here.statuses, 'the change shows');
  const next = new EvaluationCache<SpecStatus>(ahead.store, 'v1', { kind: 'status', now: later });
  assert.deepEqual(await scanStatuses(new LoomRepository(repo), next, { helpers: 0, readAhead: true }), fresh);
  assert.deepEqual(next.counts, { hits: 39, misses: 1 }, 'only the changed spec evaluated again');
});
