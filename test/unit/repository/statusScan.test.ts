/**
 * `scanStatuses` (specStatusCache.ts): every spec's status, read on demand (readSpecOnDemand), in
 * the order of the spec directories, each kept in the evaluation cache with the files its answer
 * read and found again by the next scan while they are unchanged. On the generated repository of
 * the bench (specs at executing, whose next move lacks handoffs/executing.json) the answer reads
 * the state, the task states and the handoffs, as loom's own `status` does, and the outputs the
 * blocked move checks: neither the task files, nor the ledgers loom's advance would reach only after
 * them. `later`: the files are seconds old, and a clock ten seconds ahead lets the cache keep them
 * (evaluationCache.ts, RACY_MS).
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { generateRepository } from '../../../bench/generateRepository';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import type { SpecStatus } from '../../../src/core/repository/specPipeline';
import { scanStatuses, specStatus } from '../../../src/core/repository/specStatusCache';
import { EvaluationCache } from '../../../src/core/specdir/evaluationCache';
import { findSpecDirs } from '../../../src/core/specdir/loadSpec';
import { CountingStore, later } from '../specdir/cacheFixtures';

const work = mkdtempSync(join(tmpdir(), 'loom-status-scan-'));
after(() => rmSync(work, { recursive: true, force: true }));

const sample = join(work, 'sample');
cpSync(resolve(__dirname, '../../../sample'), sample, { recursive: true });
const generated = join(work, 'generated');
generateRepository(generated, 30, 3);

/** The spec-relative paths a kept status says it read (its entry's header), sorted. */
function inputsOf(store: CountingStore, dir: string): string[] {
  const entry = [...store.files.values()].find((text) => JSON.parse(text.slice(0, text.indexOf('\n'))).dir === dir)!;
  const header = JSON.parse(entry.slice(0, entry.indexOf('\n'))) as { inputs: [string, ...unknown[]][] };
  return header.inputs.map(([path]) => path).sort();
}

for (const [name, root] of [
  ['the sample', sample],
  ['a generated repository', generated],
] as const) {
  test(`on ${name}: a status per spec, in the order of the spec directories, and the same from the cache`, () => {
    const store = new CountingStore();
    const cache = () => new EvaluationCache<SpecStatus>(store, 'v1', { kind: 'status', now: later });
    const first = cache();
    const statuses = scanStatuses(new LoomRepository(root), first);
    assert.deepEqual(
      statuses.map((s) => s.spec_dir),
      findSpecDirs(root).map((d) => d.slice(root.length + 1)),
    );
    assert.deepEqual(scanStatuses(new LoomRepository(root), undefined), statuses, 'the same without a cache');
    const second = cache();
    assert.deepEqual(scanStatuses(new LoomRepository(root), second), statuses);
    assert.deepEqual(second.counts, { hits: statuses.length, misses: 0 }, 'nothing evaluated again');
  });
}

test('a spec at executing: the answer reads its state, task states, handoffs and the outputs the blocked move checks, not its task files, ledgers or evidence', () => {
  const store = new CountingStore();
  scanStatuses(new LoomRepository(generated), new EvaluationCache<SpecStatus>(store, 'v1', { kind: 'status', now: later }));
  const dir = findSpecDirs(generated)[0];
  const read = inputsOf(store, dir);
  for (const needed of ['./pipeline.state.json', './task-states/T1.state.json', './task-states/T3.state.json', './handoffs/T1.json', './test-report.md', './traceability.json'])
    assert.ok(read.includes(needed), `${needed} in ${read.join(', ')}`);
  for (const unneeded of ['./tasks/T1.md', './requirements.json', './plan.md', './spec.md', './evidence', './evidence/test.log'])
    assert.ok(!read.includes(unneeded), `${unneeded} not read (${read.join(', ')})`);
  // The full status reads every file of the spec.
  const full = new CountingStore();
  scanStatuses(new LoomRepository(generated), new EvaluationCache<SpecStatus>(full, 'v1', { kind: 'status', now: later }), 'full');
  for (const file of ['./tasks/T1.md', './requirements.json']) assert.ok(inputsOf(full, dir).includes(file), file);
});

test('a change is seen at once: only the changed spec is evaluated again, to what a scan without the cache says', () => {
  const repo = join(work, 'changing');
  generateRepository(repo, 12, 3);
  const store = new CountingStore();
  const before = scanStatuses(new LoomRepository(repo), new EvaluationCache<SpecStatus>(store, 'v1', { kind: 'status', now: later }));
  const spec = findSpecDirs(repo)[7];
  writeFileSync(join(spec, 'task-states/T1.state.json'), JSON.stringify({ task_id: 'T1', status: 'blocked', retry_count: 3, blocker: 'the API is down' }));
  writeFileSync(join(spec, 'handoffs/executing.json'), readFileSync(join(spec, 'handoffs/T1.json'), 'utf8'));
  const fresh = scanStatuses(new LoomRepository(repo), undefined);
  assert.notDeepEqual(fresh, before, 'the change shows');
  const next = new EvaluationCache<SpecStatus>(store, 'v1', { kind: 'status', now: later });
  assert.deepEqual(scanStatuses(new LoomRepository(repo), next), fresh);
  assert.deepEqual(next.counts, { hits: 11, misses: 1 }, 'only the changed spec evaluated again');
  assert.deepEqual(specStatus(new LoomRepository(repo), spec, 'summary'), fresh[7]);
});
