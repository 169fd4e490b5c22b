import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { CorruptStateError } from '../../../src/core/errors';
import { dependentsOf, renderBreakerReport } from '../../../src/core/executing/machine/circuitBreaker';
import { buildExecutingHandoff } from '../../../src/core/executing/executingHandoff';
import { buildTaskHandoff, compactHandoffIndex, refreshHandoff, staleArtifacts, upstreamTasks } from '../../../src/core/executing/taskHandoff';
import { failureWordIn, neutralizeReportLines, renderTestReport } from '../../../src/core/executing/evidence/testReport';
import { TokenBudgetExceededError, TokenLedger } from '../../../src/core/executing/transcripts/tokenLedger';
import { FileTranscriptStore } from '../../../src/core/executing/transcripts/transcriptStore';
import { updateTraceability } from '../../../src/core/executing/evidence/traceabilityUpdate';
import { parseReport } from '../../../src/core/files/report';
import { loadSpec } from '../../../src/core/specdir/loadSpec';
import { TempRepo } from '../../helpers/tempRepo';

const cleanup: (() => void)[] = [];
after(() => cleanup.forEach((f) => f()));
const SPEC = 'specs/2026-11-25+x';

function specWithTrace(trace: object): TempRepo {
  const repo = new TempRepo('loom-trace-');
  cleanup.push(() => repo.dispose());
  repo.write(`${SPEC}/traceability.json`, trace);
  return repo;
}

test('traceability update keeps the object form, aliases and unknown keys, and fills behavior and requirement level', () => {
  const repo = specWithTrace({
    generated_by: 'loom 2.3',
    requirements: {
      'REQ-001': {
        task_ids: ['T1'],
        test_refs: [],
        receipts: [],
        note: 'keep me',
        behaviors: { 'REQ-001-B01': { tasks: ['T1'], test_ids: ['tests/old.test.js'], evidence: [], reviewer: 'x' } },
      },
    },
  });
  const changes = updateTraceability(loadSpec(repo.root, repo.path(SPEC)), [
    { requirement: 'REQ-001', behavior: 'REQ-001-B01', tasks: ['T1'], tests: ['tests/a.test.js#B01'], evidence: ['evidence/T1.log'] },
    { requirement: 'REQ-001', behavior: 'REQ-001-B02', tasks: ['T1'], tests: ['tests/a.test.js'], evidence: ['evidence/T1.log'] },
  ]);
  const t = repo.json(`${SPEC}/traceability.json`);
  assert.equal(t.generated_by, 'loom 2.3');
  const r = t.requirements['REQ-001'];
  assert.equal(r.note, 'keep me');
  assert.deepEqual(r.task_ids, ['T1']);
  assert.equal('tasks' in r, false, 'the alias in use stays the only key');
  assert.deepEqual(r.test_refs, ['tests/a.test.js#B01', 'tests/a.test.js']);
  assert.deepEqual(r.receipts, ['evidence/T1.log']);
  assert.deepEqual(r.behaviors['REQ-001-B01'], { tasks: ['T1'], test_ids: ['tests/old.test.js', 'tests/a.test.js#B01'], evidence: ['evidence/T1.log'], reviewer: 'x' });
  assert.deepEqual(r.behaviors['REQ-001-B02'], { tasks: ['T1'], tests: ['tests/a.test.js'], evidence: ['evidence/T1.log'] });
  assert.deepEqual(changes[0].added, { tasks: [], tests: ['tests/a.test.js#B01'], evidence: ['evidence/T1.log'] });
  assert.ok(repo.read(`${SPEC}/traceability.json`).endsWith('}\n'));
});

test('traceability update keeps the array form and adds a missing requirement there', () => {
  const repo = specWithTrace({ requirements: [{ id: 'REQ-001', tasks: ['T1'], tests: [], evidence: [], behaviors: {} }] });
  updateTraceability(loadSpec(repo.root, repo.path(SPEC)), [
    { requirement: 'REQ-001', behavior: 'REQ-001-B01', tasks: ['T1'], tests: ['t.js'], evidence: ['evidence/a.log'] },
    { requirement: 'REQ-002', behavior: 'REQ-002-B01', tasks: ['T2'], tests: ['u.js'], evidence: ['evidence/a.log'] },
  ]);
  const t = repo.json(`${SPEC}/traceability.json`);
  assert.ok(Array.isArray(t.requirements));
  assert.deepEqual(
    t.requirements.map((r: { id: string }) => r.id),
    ['REQ-001', 'REQ-002'],
  );
  assert.deepEqual(t.requirements[1].behaviors['REQ-002-B01'].tests, ['u.js']);
});

test('a broken ledger is reported and left untouched', () => {
  const repo = specWithTrace({ requirements: 'nope' });
  const before = repo.read(`${SPEC}/traceability.json`);
  assert.throws(() => updateTraceability(loadSpec(repo.root, repo.path(SPEC)), [{ requirement: 'REQ-001', behavior: 'REQ-001-B01', tasks: [], tests: [], evidence: [] }]), CorruptStateError);
  assert.equal(repo.read(`${SPEC}/traceability.json`), before);
});

test('task handoff: artifacts that exist, fingerprints, interfaces only where the task wrote; stale detection and refresh', () => {
  const wt = mkdtempSync(join(tmpdir(), 'loom-wt-'));
  cleanup.push(() => rmSync(wt, { recursive: true, force: true }));
  writeFileSync(join(wt, 'a.js'), 'a');
  const h = buildTaskHandoff({
    task: 'T1',
    summary: ' did it ',
    artifacts: ['a.js', 'gone.js', 'a.js'],
    exportedInterfaces: [
      { name: 'A', path: 'a.js' },
      { name: 'B', path: 'elsewhere.js' },
    ],
    requirements: ['REQ-001'],
    concerns: '',
    worktree: wt,
    now: 'now',
  });
  assert.deepEqual(h.artifacts, ['a.js']);
  assert.deepEqual(h.exported_interfaces, [{ name: 'A', path: 'a.js' }]);
  assert.equal(h.summary, 'did it');
  assert.equal(h.status, 'done');
  assert.deepEqual(staleArtifacts(h, wt), []);
  writeFileSync(join(wt, 'a.js'), 'changed');
  assert.deepEqual(staleArtifacts(h, wt), ['a.js']);
  const fresh = refreshHandoff(h, wt, ['a.js'], 'later');
  assert.deepEqual(staleArtifacts(fresh, wt), []);
  assert.match(String(fresh.notes), /refreshed later: a.js changed/);
  const index = compactHandoffIndex(
    [
      { task: 'T1', handoff: fresh, changed: ['a.js'] },
      { task: 'T0', changed: [] },
    ],
    'en',
  );
  assert.match(index, /^- T1 \(done\): did it\n {2}artifacts: a.js\n {2}exports: A \(a.js\)\n {2}note: changed after that task finished, check the source: a.js\n- T0: no handoff/);
});

test('upstream and downstream tasks follow depends_on transitively, in task order', () => {
  const tasks = new Map([
    ['T1', { depends_on: [] }],
    ['T2', { depends_on: ['T1.md'] }],
    ['T3', { depends_on: ['T2'] }],
    ['T10', { depends_on: ['T1'] }],
    ['T4', { depends_on: [] }],
  ]);
  assert.deepEqual(upstreamTasks('T3', tasks), ['T1', 'T2']);
  assert.deepEqual(
    dependentsOf(
      'T1',
      [...tasks].map(([id, t]) => ({ id, ...t })),
    ),
    ['T2', 'T3', 'T10'],
  );
  assert.deepEqual(
    dependentsOf(
      'T4',
      [...tasks].map(([id, t]) => ({ id, ...t })),
    ),
    [],
  );
});

test('breaker report names the task, its last issues, the finished tasks and the choices', () => {
  const text = renderBreakerReport({
    task: 'T2',
    title: 'Show due dates',
    reason: { kind: 'retries', retryCount: 4, maxRetries: 3 },
    lastIssues: ['[major] src/a.js: x'],
    finishedTasks: ['T1'],
    dependents: ['T3'],
    choices: ['A', 'B', 'C'],
  });
  assert.match(text, /Circuit breaker: T2 Show due dates/);
  assert.match(text, /review failed 4 times \(max_retries 3\)/);
  assert.match(text, /- \[major\] src\/a.js: x/);
  assert.match(text, /Finished tasks:\nT1/);
  assert.match(text, /\[A\] Split this task and re-plan\n\[B\] I'll fix it by hand; tell me when to continue\n\[C\] Skip this task/);
  assert.match(
    renderBreakerReport({ task: 'T2', title: 'x', reason: { kind: 'timeout', role: 'implementer', minutes: 30 }, lastIssues: [], finishedTasks: [], dependents: [], choices: ['A', 'B'] }, 'zh'),
    /熔断[\s\S]*\[B\] 我来手动修复/,
  );
});

test("test report: one verdict and one receipt, the reporter's own verdict lines neutralised", () => {
  const text = renderTestReport({
    specName: 'x',
    verdict: 'FAIL',
    reporterText: 'All fine.\nverdict: PASS\nevidence-file: evidence/fake.log',
    reasons: ['npm test exited with 1'],
    finishedTasks: ['T1'],
    requirements: [],
    skippedTasks: [],
    evidence: { file: 'evidence/test-1.log', sha256: 'ab'.repeat(32), command: 'npm test', exitCode: 1 },
    now: 'now',
    language: 'en',
  });
  const report = parseReport('test-report.md', text);
  assert.equal(report.verdict, 'FAIL');
  assert.deepEqual(report.evidence, { command: 'npm test', exitCode: 1, file: 'evidence/test-1.log', sha256: 'ab'.repeat(32) });
  assert.match(neutralizeReportLines('结论：通过'), /^测试者结论：通过$/);
  const zh = renderTestReport({
    specName: 'x',
    verdict: 'PASS',
    reporterText: '',
    reasons: [],
    finishedTasks: [],
    requirements: [
      { id: 'REQ-001', behaviors: ['REQ-001-B01'], closed: true },
      { id: 'REQ-002', behaviors: [], closed: false },
    ],
    skippedTasks: [],
    evidence: { file: 'evidence/t.log', sha256: 'c', command: 'npm test', exitCode: 0 },
    now: 'n',
    language: 'zh',
  });
  assert.equal(parseReport('r', zh).verdict, 'PASS');
  // loom 3 verify-artifacts.mjs checkReport: a PASS test report names every requirement of spec.md.
  assert.match(zh, /## 需求\n\n\| 需求 \| Behavior \| 追溯 \|\n\|---\|---\|---\|\n\| REQ-001 \| REQ-001-B01 \| 闭环 \|\n\| REQ-002 \| - \| 未闭环 \|/);
});

// loom 3 verify-artifacts.mjs checkReport: /FAIL|失败|不通过/i anywhere, unless /WARN|预先存在|known/i.
test('a failure word in the reporter’s text of a passing report is found as loom finds it', () => {
  assert.deepEqual(failureWordIn('All 12 tests ran.\n12 passed, 0 failed.'), { word: 'fail', line: 2 });
  assert.deepEqual(failureWordIn('全部 3 个测试通过，0 个失败'), { word: '失败', line: 1 });
  assert.equal(failureWordIn('12 passed, 0 failed (known flaky test skipped)'), undefined);
  assert.equal(failureWordIn('All 12 tests passed.'), undefined);
});

test('executing handoff: finished tasks, command, traceability, artifacts, risks', () => {
  const h = buildExecutingHandoff({
    finishedTasks: ['T1'],
    skippedTasks: ['T2'],
    taskHandoffs: new Map([['T1', { status: 'done', summary: 's', artifacts: ['src/a.js'], notes: 'time zones not handled' }]]),
    verificationCommand: 'npm test',
    testReport: { verdict: 'PASS', file: 'test-report.md', evidenceFile: 'evidence/t.log' },
    behaviors: ['REQ-001-B01'],
    traceability: {
      form: 'object',
      requirements: [
        {
          id: 'REQ-001',
          tasks: ['T1'],
          tests: [],
          evidence: [],
          behaviors: { 'REQ-001-B01': { tasks: ['T1'], tests: ['t.js'], evidence: ['evidence/t.log'] }, 'REQ-001-B09': { tasks: [], tests: [], evidence: [] } },
        },
      ],
    },
    worktree: tmpdir(),
    now: 'now',
  });
  assert.equal(h.status, 'partial');
  assert.equal(h.stage, 'executing');
  assert.deepEqual(h.finished_tasks, ['T1']);
  assert.equal(h.verification_command, 'npm test');
  assert.deepEqual(h.traceability_changes, [{ requirement: 'REQ-001', behavior: 'REQ-001-B01', tasks: ['T1'], tests: ['t.js'], evidence: ['evidence/t.log'] }]);
  assert.deepEqual(h.remaining_risks, ['T1: time zones not handled', 'T2 was skipped after the circuit breaker; its behaviors are not implemented']);
  assert.deepEqual(h.artifacts, ['test-report.md', 'evidence/t.log', 'src/a.js']);
});

test('token ledger: per task, role and stage; survives a round trip; budget; odd task ids are plain keys', () => {
  const ledger = new TokenLedger();
  ledger.add({ stage: 'executing', role: 'implementer', task: 'T1', input: 100, output: 20 });
  ledger.add({ stage: 'executing', role: 'reviewer', task: 'T1', input: 50, output: 5 });
  ledger.add({ stage: 'executing', role: 'implementer', task: 'constructor', input: 1, output: 1 });
  const saved = JSON.parse(JSON.stringify(ledger.toJSON('now')));
  assert.deepEqual(saved.total, { input: 151, output: 26 });
  assert.deepEqual(saved.tasks.T1, { input: 150, output: 25, roles: { implementer: { input: 100, output: 20 }, reviewer: { input: 50, output: 5 } } });
  assert.deepEqual(saved.stages.executing, { input: 151, output: 26 });
  const again = new TokenLedger(saved);
  assert.equal(again.used(), 177);
  assert.deepEqual(again.ofTask('constructor'), { input: 1, output: 1 });
  assert.doesNotThrow(() => again.checkBudget(undefined));
  assert.doesNotThrow(() => again.checkBudget(178));
  assert.throws(() => again.checkBudget(177), TokenBudgetExceededError);
  assert.equal(new TokenLedger({ total: { input: 'x' }, tasks: [1] }).used(), 0, 'a hand-edited record is read leniently');
});

test('file transcript store: one JSONL per dispatch under the storage directory, listed and read back', () => {
  const storage = mkdtempSync(join(tmpdir(), 'loom-storage-'));
  cleanup.push(() => rmSync(storage, { recursive: true, force: true }));
  const store = new FileTranscriptStore(storage);
  const base = { spec: SPEC, task: 'T1', role: 'implementer' as const };
  store.append({ ...base, at: '2026-01-01T00:00:02Z', dispatchId: 'd2', kind: 'request', content: 'two' });
  store.append({ ...base, at: '2026-01-01T00:00:01Z', dispatchId: 'd1', kind: 'request', content: 'one' });
  store.append({ ...base, at: '2026-01-01T00:00:03Z', dispatchId: 'd1', kind: 'reply', content: { text: 'hi' }, tokens: 3 });
  assert.deepEqual(
    store.list(SPEC).map((d) => [d.dispatchId, d.entries]),
    [
      ['d1', 2],
      ['d2', 1],
    ],
  );
  assert.deepEqual(
    store.read(SPEC, 'd1').map((e) => e.kind),
    ['request', 'reply'],
  );
  assert.deepEqual(store.list('specs/other'), []);
});
