import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CountingStore, FIXTURE_SPEC, later, scratchRepos } from './cacheFixtures';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { displayLanguage, setDisplayLanguage, type Language } from '../../../src/core/messages';
import { loadSpec } from '../../../src/core/specdir/loadSpec';
import { cacheKey, directoryCacheStore, SpecCache } from '../../../src/core/specdir/specCache';

const { scratch, copyRepo } = scratchRepos('loom-cache-');
const SPEC = FIXTURE_SPEC;

/** A snapshot as comparable data: what every reader of the snapshot can see. */
const facts = (s: ReturnType<typeof loadSpec>) => ({ ...s, files: [...s.files].sort(), tasks: [...s.tasks], taskStates: [...s.taskStates], handoffs: [...s.handoffs], reports: [...s.reports] });

describe('SpecCache', () => {
  it('gives the same snapshot as reading the files, cold and warm, diagnostics included', () => {
    const repo = copyRepo();
    const dir = join(repo, SPEC);
    // A broken file, a schema problem and a task-id mismatch: their diagnostics come from the cache too.
    writeFileSync(join(dir, 'requirements.json'), '{ "requirements": [ ');
    writeFileSync(join(dir, 'task-states', 'T2.state.json'), JSON.stringify({ task_id: 'T9', status: 'done', retry_count: 0 }));
    const plain = facts(loadSpec(repo, dir));
    assert.ok(plain.diagnostics.length >= 2, 'the fixture has problems to cache');
    const store = new CountingStore();
    const cold = new SpecCache(store, 'v1', { now: later });
    assert.deepEqual(facts(loadSpec(repo, dir, cold)), plain);
    assert.equal(store.writes, 1);
    // A new cache (a new process, a reload of the window) reads the file the first one wrote.
    const warm = new SpecCache(store, 'v1', { now: later });
    const again = loadSpec(repo, dir, warm);
    assert.deepEqual(facts(again), plain);
    assert.equal(store.writes, 1, 'nothing changed: nothing is written');
    assert.ok(again.tasks.get('T1')!.keyLines instanceof Map, 'a task file keeps its key lines as a Map');
  });

  it("keeps a list row's parse of pipeline.state.json in a file of its own (kind summary), used while the file is unchanged", () => {
    const repo = copyRepo();
    const dir = join(repo, SPEC);
    const store = new CountingStore();
    const rows = () => new LoomRepository(repo, { summaryCache: new SpecCache(store, 'v1', { now: later, kind: 'summary' }) });
    const plain = new LoomRepository(repo).summary(dir);
    const first = rows().summary(dir);
    assert.deepEqual([...store.files.keys()], [`${cacheKey(dir)}.summary`], "apart from the spec's own cache file");
    assert.deepEqual(Object.keys(JSON.parse(store.files.get(`${cacheKey(dir)}.summary`)!).files), ['pipeline.state.json'], 'the one file a row reads');
    assert.deepEqual(facts(first.snapshot), facts(plain.snapshot));
    // A reload: the row comes from the kept parse, and is the same.
    const warm = new SpecCache(store, 'v1', { now: later, kind: 'summary' });
    const again = new LoomRepository(repo, { summaryCache: warm }).summary(dir);
    assert.deepEqual(warm.counts, { hits: 1, misses: 0 });
    assert.deepEqual(facts(again.snapshot), facts(plain.snapshot));
    assert.equal(again.stage, plain.stage);
    // Another stage written by loom: the row reads the file again.
    const state = JSON.parse(readFileSync(join(dir, 'pipeline.state.json'), 'utf8'));
    writeFileSync(join(dir, 'pipeline.state.json'), JSON.stringify({ ...state, current_stage: 'planning' }, null, 2));
    const changed = new SpecCache(store, 'v1', { now: later, kind: 'summary' });
    const moved = new LoomRepository(repo, { summaryCache: changed }).summary(dir);
    assert.deepEqual(changed.counts, { hits: 0, misses: 1 });
    assert.equal(moved.snapshot.state?.current_stage, 'planning');
    for (const s of [plain, first, again, moved]) s.dispose();
  });

  it('rebuilds a cache written in another display language: the problems it holds are worded in the one now', () => {
    const repo = copyRepo();
    const dir = join(repo, SPEC);
    writeFileSync(join(dir, 'requirements.json'), '{ "requirements": [ ');
    const before = displayLanguage();
    const store = new CountingStore();
    const messages = (language: Language) => {
      setDisplayLanguage(language);
      try {
        return loadSpec(repo, dir, new SpecCache(store, 'v1', { now: later })).diagnostics.map((d) => d.message);
      } finally {
        setDisplayLanguage(before);
      }
    };
    const uncached = (language: Language) => {
      setDisplayLanguage(language);
      try {
        return loadSpec(repo, dir).diagnostics.map((d) => d.message);
      } finally {
        setDisplayLanguage(before);
      }
    };
    assert.deepEqual(messages('en'), uncached('en'));
    assert.deepEqual(messages('zh'), uncached('zh'));
    assert.notDeepEqual(uncached('zh'), uncached('en'), 'the problem is worded differently in each');
    assert.equal(store.writes, 2, 'rewritten in the other language');
  });

  it('reads a changed file again, and only that one', () => {
    const repo = copyRepo();
    const dir = join(repo, SPEC);
    const store = new CountingStore();
    loadSpec(repo, dir, new SpecCache(store, 'v1', { now: later }));
    const path = join(dir, 'task-states', 'T1.state.json');
    const state = JSON.parse(readFileSync(path, 'utf8'));
    writeFileSync(path, JSON.stringify({ ...state, status: 'blocked', blocker: 'waiting on the API' }));
    const s = loadSpec(repo, dir, new SpecCache(store, 'v1', { now: later }));
    assert.equal(s.taskStates.get('T1')!.status, 'blocked');
    assert.equal(store.writes, 2);
    assert.deepEqual(facts(s), facts(loadSpec(repo, dir)));
  });

  it('sees a file rewritten with the same size (another modification time)', () => {
    const repo = copyRepo();
    const dir = join(repo, SPEC);
    const path = join(dir, 'task-states', 'T1.state.json');
    writeFileSync(path, JSON.stringify({ task_id: 'T1', status: 'done', retry_count: 1 }));
    const store = new CountingStore();
    loadSpec(repo, dir, new SpecCache(store, 'v1', { now: later }));
    // Same length, other content: only the stamp can tell.
    writeFileSync(path, JSON.stringify({ task_id: 'T1', status: 'done', retry_count: 2 }));
    assert.equal(loadSpec(repo, dir, new SpecCache(store, 'v1', { now: later })).taskStates.get('T1')!.retry_count, 2);
  });

  it('forgets a deleted file and a deleted spec', () => {
    const repo = copyRepo();
    const dir = join(repo, SPEC);
    const store = new CountingStore();
    const cache = new SpecCache(store, 'v1', { now: later });
    const r = new LoomRepository(repo, { cache }).load();
    assert.ok(r.get(SPEC)!.snapshot.taskStates.has('T1'));
    rmSync(join(dir, 'task-states', 'T1.state.json'));
    r.reload(dir);
    assert.equal(r.get(SPEC)!.snapshot.taskStates.has('T1'), false);
    const written = JSON.parse(store.files.get(cacheKey(dir))!);
    assert.equal(Object.hasOwn(written.files, 'task-states/T1.state.json'), false, 'the entry of a deleted file is dropped');
    rmSync(dir, { recursive: true });
    r.reload(dir);
    assert.equal(store.files.has(cacheKey(dir)), false);
  });

  for (const [what, corrupt] of [
    ['not JSON', () => '\u0000\u0001garbage'],
    ['truncated', (b: string) => b.slice(0, Math.floor(b.length / 2))],
    ['of another version', (b: string) => b.replace(/"version":"v1\+/, '"version":"v0+')],
    ['about another directory', (b: string) => b.replace(/"dir":"[^"]*"/, '"dir":"/elsewhere"')],
    ['with an entry of the wrong shape', (b: string) => b.replace(/"pipeline\.state\.json":\[\d+/, '"pipeline.state.json":["x"')],
    ['JSON of another shape', () => '[1,2,3]'],
  ] as const) {
    it(`rebuilds a cache file that is ${what}, never trusting it`, () => {
      const repo = copyRepo();
      const dir = join(repo, SPEC);
      const store = new CountingStore();
      loadSpec(repo, dir, new SpecCache(store, 'v1', { now: later }));
      const key = cacheKey(dir);
      const good = store.files.get(key)!;
      // The cached parse says something the files do not: trusting it would show it.
      const lying = good.replace(/"current_stage":"[a-z-]+"/, '"current_stage":"failed"');
      assert.notDeepEqual(lying, good, 'the fixture names its stage');
      store.files.set(key, corrupt(lying));
      const cache = new SpecCache(store, 'v1', { now: later });
      const s = loadSpec(repo, dir, cache);
      assert.deepEqual(facts(s), facts(loadSpec(repo, dir)));
      assert.equal(cache.rejected, 1);
      assert.equal(store.files.get(key)!, good, 'rewritten from the files');
    });
  }

  it('does not keep the parse of a file changed the moment it was read (racily clean)', () => {
    const repo = copyRepo();
    const dir = join(repo, SPEC);
    const store = new CountingStore();
    // The real clock: every file of the fresh copy is younger than the racy window.
    loadSpec(repo, dir, new SpecCache(store, 'v1'));
    const written = JSON.parse(store.files.get(cacheKey(dir))!);
    assert.deepEqual(written.files, {});
  });

  it('writes one file per spec into a directory store, atomically, leaving no temporary file', () => {
    const repo = copyRepo();
    const root = join(scratch, 'store');
    const cache = new SpecCache(directoryCacheStore(root), 'v1', { now: later });
    const r = new LoomRepository(repo, { cache }).load();
    const names = readdirSync(root);
    assert.equal(names.length, r.all().length);
    assert.ok(
      names.every((f) => /^[0-9a-f]{40}\.json$/.test(f)),
      names.join(', '),
    );
  });

  it('writes delayed cache files at once when they add up to more than 256 KB, not holding them all', () => {
    const store = new CountingStore();
    const cache = new SpecCache(store, 'v1', { now: later, writeDelayMs: 60_000 });
    const big = { text: 'x'.repeat(32 * 1024) };
    const stamp = { size: 1, mtimeMs: 1, ctimeMs: 1 };
    for (let i = 0; i < 7; i++) {
      const entries = cache.open(`/specs/s${i}`);
      entries.set('spec.md', stamp, big);
      cache.commit(`/specs/s${i}`, entries);
    }
    assert.equal(store.writes, 0, 'under the limit: still waiting');
    for (let i = 7; i < 10; i++) {
      const entries = cache.open(`/specs/s${i}`);
      entries.set('spec.md', stamp, big);
      cache.commit(`/specs/s${i}`, entries);
    }
    assert.equal(store.writes, 8, 'the eighth passes 256 KB: the eight are written');
    cache.flush();
    assert.equal(store.writes, 10);
  });

  it('reads back a delayed cache file still waiting to be written, with nothing kept in memory', () => {
    const store = new CountingStore();
    const cache = new SpecCache(store, 'v1', { now: later, writeDelayMs: 60_000, remember: false });
    const stamp = { size: 1, mtimeMs: 1, ctimeMs: 1 };
    const entries = cache.open('/specs/s1');
    entries.set('spec.md', stamp, { text: 'kept' });
    cache.commit('/specs/s1', entries);
    assert.equal(store.writes, 0, 'still waiting');
    assert.deepEqual(cache.open('/specs/s1').get('spec.md', stamp), { text: 'kept' }, 'the waiting parse, not a parse again');
    cache.flush();
    assert.equal(store.writes, 1);
  });

  it('keeps the repository current: a spec reloaded after a change comes from the file', () => {
    const repo = copyRepo();
    const store = new CountingStore();
    const r = new LoomRepository(repo, { cache: new SpecCache(store, 'v1', { now: later }) }).load();
    const path = join(repo, SPEC, 'task-states', 'T1.state.json');
    writeFileSync(path, JSON.stringify({ task_id: 'T1', status: 'executing', retry_count: 3 }));
    const dir = r.specDirOf(path)!;
    r.reload(dir);
    assert.equal(r.get(dir)!.snapshot.taskStates.get('T1')!.retry_count, 3);
  });
});
