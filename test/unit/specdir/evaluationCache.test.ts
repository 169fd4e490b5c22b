import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import fs from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CountingStore, FIXTURE_SPEC, later, scratchRepos } from './cacheFixtures';
import { recordReads } from '../../../src/core/fs/readRecorder';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { evaluateSpec, type SpecEvaluation } from '../../../src/core/repository/specEvaluation';
import { EvaluationCache, evaluationKey } from '../../../src/core/specdir/evaluationCache';
import { directoryCacheStore, SpecCache, type SpecCacheStore } from '../../../src/core/specdir/specCache';
import { specStaleness } from '../../../src/core/specdir/staleness';

const { scratch, copyRepo } = scratchRepos('loom-evaluation-cache-');
const SPEC = FIXTURE_SPEC;
const MemoryStore = CountingStore;

/** The look the extension takes at a spec after its first rows (host/specs/backgroundLook.ts), counted. */
function evaluator(repo: string) {
  const counted = { runs: 0 };
  const repository = new LoomRepository(repo);
  const evaluate = (): SpecEvaluation => {
    counted.runs++;
    const spec = repository.readDetached(join(repo, SPEC));
    try {
      return evaluateSpec(spec, specStaleness(spec.snapshot, spec.definition, spec.stage), (_part, e) => {
        throw e;
      });
    } finally {
      spec.dispose();
    }
  };
  return { counted, evaluate };
}

/** An evaluation file's two lines: its header (parsed) and its result's text. */
function splitFile(text: string) {
  const cut = text.indexOf('\n');
  return { header: JSON.parse(text.slice(0, cut)), result: text.slice(cut + 1) };
}
const joinFile = (header: object, result: string) => `${JSON.stringify(header)}\n${result}`;

/** One session: a new cache over the same store, as a reload of the window makes. */
const session = (store: SpecCacheStore, version = 'v1') => new EvaluationCache<SpecEvaluation>(store, version, { now: later });

describe('EvaluationCache', () => {
  it('reuses the evaluation of an unchanged spec in the next session, equal to a fresh one', () => {
    const repo = copyRepo();
    const dir = join(repo, SPEC);
    const store = new MemoryStore();
    const { counted, evaluate } = evaluator(repo);
    const first = session(store).get(dir, 'en', evaluate);
    assert.equal(counted.runs, 1);
    assert.ok(first.diagnostics.length + first.findings.length > 0, 'the fixture has problems to keep');
    assert.ok(first.staleness.handoffs.length > 0, 'and stale marks');
    const warm = session(store);
    const again = warm.get(dir, 'en', evaluate);
    assert.equal(counted.runs, 1, 'nothing changed: the spec is not read again');
    assert.deepEqual(warm.counts, { hits: 1, misses: 0 });
    assert.deepEqual(again, evaluate());
  });

  it('hands over a kept evaluation without evaluating anything (stored), and nothing once a file it read changed', () => {
    const repo = copyRepo();
    const dir = join(repo, SPEC);
    const store = new MemoryStore();
    const { counted, evaluate } = evaluator(repo);
    const first = session(store).get(dir, 'en', evaluate);
    const warm = session(store);
    assert.deepEqual(warm.stored(dir, 'en'), first);
    assert.equal(warm.stored(dir, 'zh'), undefined, 'kept in another language');
    assert.deepEqual(warm.counts, { hits: 1, misses: 0 });
    writeFileSync(join(dir, 'spec.md'), `${readFileSync(join(dir, 'spec.md'), 'utf8')}\nOne more line.\n`);
    assert.equal(warm.stored(dir, 'en'), undefined);
    assert.deepEqual(warm.counts, { hits: 1, misses: 0 }, 'whoever evaluates it counts the miss');
    assert.equal(counted.runs, 1, 'stored never evaluates');
  });

  it('evaluates again when a file it read changed, appeared or disappeared, and only then', () => {
    const repo = copyRepo();
    const dir = join(repo, SPEC);
    const store = new MemoryStore();
    const { counted, evaluate } = evaluator(repo);
    const look = () => session(store).get(dir, 'en', evaluate);
    look();
    const changes: [string, () => void][] = [
      [
        'a task state changed',
        () => writeFileSync(join(dir, 'task-states', 'T1.state.json'), readFileSync(join(dir, 'task-states', 'T1.state.json'), 'utf8').replace('"retry_count": 0', '"retry_count": 10')),
      ],
      ['a task file added', () => writeFileSync(join(dir, 'tasks', 'T9.md'), '---\nowns: [src/nine.ts]\n---\n# T9 Nine\n')],
      ['a handoff removed', () => rmSync(join(dir, 'handoffs', 'T1.json'))],
      // Outside the spec directory: a test file traceability.json names, looked for in the repository.
      ['a traced test created in the repository', () => (mkdirSync(join(repo, 'tests', 'auth'), { recursive: true }), writeFileSync(join(repo, 'tests', 'auth', 'login.test.ts'), 'test'))],
      ['the same size, another modification time', () => utimesSync(join(dir, 'spec.md'), new Date(), new Date(Date.now() - 3_600_000))],
    ];
    for (const [what, change] of changes) {
      const before = counted.runs;
      change();
      const fresh = look();
      assert.equal(counted.runs, before + 1, `${what}: evaluated again`);
      assert.deepEqual(fresh, evaluate(), `${what}: the new evaluation is the files' own`);
      counted.runs--; // the comparison's own run
      look();
      assert.equal(counted.runs, before + 1, `${what}: then kept again`);
    }
  });

  it('keeps the files by one hash of their stamps, and evaluates again when it is not theirs', () => {
    const repo = copyRepo();
    const dir = join(repo, SPEC);
    const store = new MemoryStore();
    const { counted, evaluate } = evaluator(repo);
    session(store).get(dir, 'en', evaluate);
    const { header, result } = splitFile(store.files.get(evaluationKey(dir))!);
    assert.ok(
      header.inputs.some((i: unknown[]) => i.length === 1 && i[0] === './spec.md'),
      'a file is kept by its name',
    );
    assert.match(header.stamps, /^[0-9a-f]{40}$/);
    store.files.set(evaluationKey(dir), joinFile({ ...header, stamps: createHash('sha1').update('other files').digest('hex') }, result));
    const runs = counted.runs;
    const cache = session(store);
    cache.get(dir, 'en', evaluate);
    assert.equal(counted.runs, runs + 1, 'evaluated again');
    assert.equal(cache.rejected, 0, 'a change, not a corrupt file');
  });

  it('checks a folder it listed by its times, and lists it again only when they moved', () => {
    const repo = copyRepo();
    const dir = join(repo, SPEC);
    const tasks = join(dir, 'tasks');
    const store = new MemoryStore();
    const { counted, evaluate } = evaluator(repo);
    session(store).get(dir, 'en', evaluate);
    const key = evaluationKey(dir);
    const { header: kept, result } = splitFile(store.files.get(key)!);
    const listed = kept.inputs.find(([path]: [string]) => path === './tasks');
    const st = statSync(tasks);
    assert.deepEqual(listed.slice(3), [st.mtimeMs, st.ctimeMs], 'tasks/ is kept with its times');
    // Names that are not the folder's, with its times unchanged: it is not listed again, so the look is kept.
    store.files.set(key, joinFile({ ...kept, inputs: kept.inputs.map((i: unknown[]) => (i === listed ? ['./tasks', 'dir', ['elsewhere.md'], ...listed.slice(3)] : i)) }, result));
    session(store).get(dir, 'en', evaluate);
    assert.equal(counted.runs, 1, 'unchanged times: the names kept are trusted');
    store.files.set(key, joinFile(kept, result));
    // An entry that came and went: the times moved, the names are the same: the look is kept.
    writeFileSync(join(tasks, 'scratch.tmp'), '');
    rmSync(join(tasks, 'scratch.tmp'));
    session(store).get(dir, 'en', evaluate);
    assert.equal(counted.runs, 1, 'listed again, the same names');
    // A task added, and the folder's modification time as it was kept (set back, as tar or
    // rsync -a do; here the kept one is set forward, to the exact same effect): the change time moved.
    writeFileSync(join(tasks, 'T9.md'), '---\nowns: [src/nine.ts]\n---\n# T9 Nine\n');
    const moved = statSync(tasks);
    assert.notEqual(moved.ctimeMs, st.ctimeMs);
    store.files.set(key, joinFile({ ...kept, inputs: kept.inputs.map((i: unknown[]) => (i === listed ? [...listed.slice(0, 3), moved.mtimeMs, st.ctimeMs] : i)) }, result));
    const fresh = session(store).get(dir, 'en', evaluate);
    assert.equal(counted.runs, 2, 'the new task is seen');
    assert.deepEqual(fresh, evaluate());
  });

  it('takes a path found missing in a folder it listed as still missing while the folder is unchanged, and sees it appear', () => {
    const repo = copyRepo();
    const dir = join(repo, SPEC);
    const store = new MemoryStore();
    const { counted, evaluate } = evaluator(repo);
    session(store).get(dir, 'en', evaluate);
    const key = evaluationKey(dir);
    const { header: kept, result } = splitFile(store.files.get(key)!);
    const listedDirs = new Map<string, string[]>(kept.inputs.filter((i: unknown[]) => i[1] === 'dir' && Array.isArray(i[2])).map((i: [string, 'dir', string[]]) => [i[0], i[2]]));
    const missing = kept.inputs.find(([path, kind]: [string, string]) => kind === 'missing' && listedDirs.has(path.slice(0, path.lastIndexOf('/'))));
    assert.ok(missing, 'the fixture looks for a file that is not in a folder it listed');
    const [path] = missing as [string];
    const folder = path.slice(0, path.lastIndexOf('/'));
    const present = listedDirs.get(folder)!.find((n) => !n.startsWith('.'))!;
    assert.ok(present, `${folder} has a file`);
    // A path kept as missing, in a folder kept with names that leave it out and its own times:
    // the names are trusted, no stat is made, and the look is kept (with a stat it would not be: the file is there).
    const trusting = {
      ...kept,
      inputs: [...kept.inputs, [`${folder}/${present}`, 'missing']].map((i: unknown[]) => (i[0] === folder ? [folder, 'dir', listedDirs.get(folder)!.filter((n) => n !== present), ...i.slice(3)] : i)),
    };
    store.files.set(key, joinFile(trusting, result));
    session(store).get(dir, 'en', evaluate);
    assert.equal(counted.runs, 1, 'the folder is unchanged: what it did not hold, it still does not');
    // The missing file appears: the folder's times move, and the look is taken again.
    store.files.set(key, joinFile(kept, result));
    const file = join(dir, ...path.slice(2).split('/'));
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, '{}');
    const fresh = session(store).get(dir, 'en', evaluate);
    assert.equal(counted.runs, 2, `${path} appeared: evaluated again`);
    assert.deepEqual(fresh, evaluate());
  });

  it('lists again a folder that changed a moment before the look: its times may not move with the next change', async () => {
    const repo = copyRepo();
    const dir = join(repo, SPEC);
    const tasks = join(dir, 'tasks');
    const store = new MemoryStore();
    const { evaluate } = evaluator(repo);
    // tasks/ changes after every file was copied (a few clock ticks later), and the look runs as
    // if right after: the files are older than the racy margin, the folder is not.
    await new Promise((r) => setTimeout(r, 50));
    writeFileSync(join(tasks, 'scratch.tmp'), '');
    rmSync(join(tasks, 'scratch.tmp'));
    const now = () => statSync(tasks).ctimeMs + 2000;
    new EvaluationCache<SpecEvaluation>(store, 'v1', { now }).get(dir, 'en', evaluate);
    const inputs = splitFile(store.files.get(evaluationKey(dir))!).header.inputs as unknown[][];
    assert.equal(inputs.find(([path]) => path === './tasks')!.length, 3, 'tasks/ is kept with its names only');
    assert.equal(inputs.find(([path]) => path === '.')!.length, 5, 'the spec folder, older, with its times');
  });

  it('evaluates again for another display language, another build, or a changed workflow', () => {
    const repo = copyRepo();
    const dir = join(repo, SPEC);
    const store = new MemoryStore();
    const { counted, evaluate } = evaluator(repo);
    const workflow = join(repo, '.loom', 'workflow.yaml');
    mkdirSync(join(repo, '.loom'), { recursive: true });
    if (!existsSync(workflow)) writeFileSync(workflow, 'defaults: { pipeline_type: feature }\n');
    session(store).get(dir, 'en', evaluate, [workflow]);
    session(store).get(dir, 'zh', evaluate, [workflow]);
    assert.equal(counted.runs, 2, 'another language');
    session(store, 'v2').get(dir, 'zh', evaluate, [workflow]);
    assert.equal(counted.runs, 3, 'another build');
    writeFileSync(workflow, `${readFileSync(workflow, 'utf8')}# edited\n`);
    session(store, 'v2').get(dir, 'zh', evaluate, [workflow]);
    assert.equal(counted.runs, 4, 'the workflow changed');
    session(store, 'v2').get(dir, 'zh', evaluate, [workflow]);
    assert.equal(counted.runs, 4);
  });

  it('rebuilds an evaluation file that is corrupt, truncated, of another directory, edited, or of another format', () => {
    const repo = copyRepo();
    const dir = join(repo, SPEC);
    const store = new MemoryStore();
    const { counted, evaluate } = evaluator(repo);
    session(store).get(dir, 'en', evaluate);
    const good = store.files.get(evaluationKey(dir))!;
    const { header, result } = splitFile(good);
    const stored = JSON.parse(result);
    const corruptions: [string, string][] = [
      ['truncated in its header', good.slice(0, good.indexOf('\n') >> 1)],
      ['truncated in its result', good.slice(0, good.length - 5)],
      ['not JSON', '\u0000\u0001garbage'],
      ['about another directory', joinFile({ ...header, dir: join(repo, 'specs', 'other') }, result)],
      // Valid JSON, of the right shape: only the checksum tells.
      ['a result edited after it was written', joinFile(header, JSON.stringify({ ...stored, group: stored.group === 'done' ? 'failed' : 'done' }))],
      ['a result of the wrong shape', joinFile(header, JSON.stringify({ ...stored, findings: 'none' }))],
      ['a result that is not JSON, with its checksum', joinFile({ ...header, sum: createHash('sha1').update('{"group":').digest('hex') }, '{"group":')],
      ['an input of the wrong shape', joinFile({ ...header, inputs: [...header.inputs, ['x', 'what']] }, result)],
      ['no checksum', joinFile({ ...header, sum: undefined }, result)],
      ['no stamps', joinFile({ ...header, stamps: undefined }, result)],
      [
        'the format before, each file with its stamp',
        joinFile({ ...header, format: 3, stamps: undefined, inputs: header.inputs.map((i: unknown[]) => (i.length === 1 ? [i[0], 1, 2, 3] : i)) }, result),
      ],
      ['another format', joinFile({ ...header, format: 0 }, result)],
      ['the format before, one JSON document', JSON.stringify({ ...header, format: 2, sum: undefined, result: stored })],
    ];
    for (const [what, data] of corruptions) {
      store.files.set(evaluationKey(dir), data);
      const runs = counted.runs;
      const cache = session(store);
      const evaluation = cache.get(dir, 'en', evaluate);
      assert.equal(cache.rejected, 1, `${what}: rejected`);
      assert.equal(counted.runs, runs + 1, `${what}: evaluated again`);
      assert.deepEqual(evaluation, evaluate(), `${what}: never trusted`);
      counted.runs--;
      assert.deepEqual(JSON.parse(splitFile(store.files.get(evaluationKey(dir))!).result), stored, `${what}: rewritten`);
    }
  });

  it('does not keep an evaluation that read a file modified a moment ago, nor one that depends on more than files', () => {
    const repo = copyRepo();
    const dir = join(repo, SPEC);
    const store = new MemoryStore();
    const { evaluate } = evaluator(repo);
    const now = () => statSync(join(dir, 'spec.md')).mtimeMs + 500;
    new EvaluationCache<SpecEvaluation>(store, 'v1', { now }).get(dir, 'en', evaluate);
    assert.equal(store.writes, 0, 'spec.md was written half a second before: its stamp may hide a second write');
    session(store).get(dir, 'en', (dependsOnMore) => (dependsOnMore(), evaluate()));
    assert.equal(store.writes, 0, 'a live run lock of another process');
    session(store).get(dir, 'en', evaluate);
    assert.equal(store.writes, 1);
  });

  it('written a moment later when asked (the extension host), read back from what waits meanwhile, and written by flush', () => {
    const repo = copyRepo();
    const dir = join(repo, SPEC);
    const store = new MemoryStore();
    const { counted, evaluate } = evaluator(repo);
    const cache = new EvaluationCache<SpecEvaluation>(store, 'v1', { now: later, writeDelayMs: 60_000 });
    const first = cache.get(dir, 'en', evaluate);
    assert.equal(store.writes, 0, 'nothing is written during the look');
    assert.equal(cache.written, 0);
    assert.deepEqual(cache.stored(dir, 'en'), first, 'what waits to be written is the kept look');
    assert.equal(counted.runs, 1);
    cache.flush();
    assert.equal(store.writes, 1);
    assert.equal(cache.written, 1);
    assert.deepEqual(session(store).get(dir, 'en', evaluate), first, 'the next session finds it');
    assert.equal(counted.runs, 1);
    // A spec gone before its file was written: nothing is written for it.
    const other = new MemoryStore();
    const forgetting = new EvaluationCache<SpecEvaluation>(other, 'v1', { now: later, writeDelayMs: 60_000 });
    forgetting.get(dir, 'en', evaluate);
    forgetting.forget(dir);
    forgetting.flush();
    assert.equal(other.writes, 0);
    assert.equal(forgetting.stored(dir, 'en'), undefined);
  });

  it('a delayed write that fails loses only the cache file: flush never throws', () => {
    const repo = copyRepo();
    const dir = join(repo, SPEC);
    const { evaluate } = evaluator(repo);
    const failing: SpecCacheStore = {
      read: () => undefined,
      write: () => {
        throw new Error('EROFS: read-only file system');
      },
      remove: () => undefined,
    };
    const cache = new EvaluationCache<SpecEvaluation>(failing, 'v1', { now: later, writeDelayMs: 60_000 });
    cache.get(dir, 'en', evaluate);
    assert.doesNotThrow(() => cache.flush());
    assert.equal(cache.written, 0);
  });

  it('lives in the per-spec cache folder beside the parses, and is forgotten with the spec', () => {
    const repo = copyRepo();
    const dir = join(repo, SPEC);
    const folder = join(scratch, 'store');
    const store = directoryCacheStore(folder);
    const parses = new SpecCache(store, 'v1', { now: later });
    const repository = new LoomRepository(repo, { cache: parses });
    const cache = session(store);
    cache.get(dir, 'en', () => {
      const spec = repository.readDetached(dir);
      try {
        return evaluateSpec(spec, specStaleness(spec.snapshot, spec.definition, spec.stage), () => undefined);
      } finally {
        spec.dispose();
      }
    });
    assert.ok(existsSync(join(folder, `${evaluationKey(dir)}.json`)));
    // The parse cache's own file is how parses are kept, not something the evaluation depends on.
    const inputs = splitFile(readFileSync(join(folder, `${evaluationKey(dir)}.json`), 'utf8')).header.inputs as [string][];
    assert.deepEqual(
      inputs.filter(([path]) => path.startsWith(folder)),
      [],
      'the cache folder is no input',
    );
    cache.forget(dir);
    assert.ok(!existsSync(join(folder, `${evaluationKey(dir)}.json`)));
  });
});

describe('recordReads', () => {
  it('records what was read, listed and found missing, and restores node:fs even when the work throws', () => {
    const repo = copyRepo();
    const readFileSync = fs.readFileSync;
    const recorded = recordReads(() => {
      fs.readFileSync(join(repo, SPEC, 'spec.md'));
      fs.readdirSync(join(repo, SPEC, 'tasks'));
      fs.existsSync(join(repo, 'nowhere'));
      return 1;
    });
    assert.equal(recorded.inputs.get(join(repo, SPEC, 'spec.md'))?.kind, 'file');
    const tasks = statSync(join(repo, SPEC, 'tasks'));
    assert.deepEqual(recorded.inputs.get(join(repo, SPEC, 'tasks')), { kind: 'dir', names: ['T1.md', 'T10.md', 'T2.md', 'notes.md'], mtimeMs: tasks.mtimeMs, ctimeMs: tasks.ctimeMs });
    assert.deepEqual(recorded.inputs.get(join(repo, 'nowhere')), { kind: 'missing' });
    assert.throws(() =>
      recordReads(() => {
        throw new Error('boom');
      }),
    );
    assert.equal(fs.readFileSync, readFileSync, 'node:fs is itself again');
    const fd = fs.openSync(join(repo, SPEC, 'spec.md'), 'r');
    try {
      assert.equal(recordReads(() => fs.readFileSync(fd).length).unrecorded, true, 'a file descriptor cannot be checked again');
    } finally {
      fs.closeSync(fd);
    }
  });
});
