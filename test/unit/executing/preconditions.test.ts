import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, test } from 'node:test';
import { checkExecutingPreconditions } from '../../../src/core/executing/preconditions';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { loadSpec } from '../../../src/core/specdir/loadSpec';
import type { TempRepo } from '../../helpers/tempRepo';
import { executingFixture, SPEC, type FixtureOptions } from './helpers/executingFixture';

const repos: TempRepo[] = [];
after(() => repos.forEach((r) => r.dispose()));

function check(options: FixtureOptions = {}, edit?: (repo: TempRepo) => void, worktree?: string) {
  const { repo, specDir } = executingFixture(options);
  repos.push(repo);
  edit?.(repo);
  const definition = new LoomRepository(repo.root).load().get(SPEC)!.definition;
  return checkExecutingPreconditions(loadSpec(repo.root, specDir), definition, worktree ?? repo.root);
}
const codes = (r: ReturnType<typeof check>) => r.diagnostics.map((d) => d.code);

test('a spec in executing with its worktree and a sound plan may start', () => {
  const r = check();
  assert.deepEqual(r.diagnostics, []);
  assert.equal(r.ok, true);
  assert.equal(r.stage?.maxRetries, 2, 'the step config overrides workflow defaults');
  assert.equal(r.stage?.timeoutMinutes, 30);
});

test('the plan must be approved: at the approval gate, before it, or failed, the loop refuses', () => {
  assert.deepEqual(codes(check({ stage: 'approved', history: [] })), ['plan-not-approved']);
  assert.deepEqual(codes(check({ stage: 'planning', history: [] })), ['plan-not-approved']);
  assert.deepEqual(codes(check({ stage: 'verification' })), ['plan-not-approved']);
  assert.match(check({ stage: 'failed' }).diagnostics[0].message, /has failed/);
});

test('the worktree must exist', () => {
  const r = check({}, undefined, '/nonexistent/worktree');
  assert.deepEqual(codes(r), ['no-worktree']);
  assert.match(r.diagnostics[0].message, /\/nonexistent\/worktree does not exist/);
});

test("each task's behavior_ids must be mapped to that task in traceability.json, and the diagnostic says which", () => {
  const r = check({}, (repo) => {
    const t = repo.json(`${SPEC}/traceability.json`);
    t.requirements['REQ-001'].behaviors['REQ-001-B02'].tasks = ['T2'];
    delete t.requirements['REQ-002'].behaviors['REQ-002-B01'];
    repo.write(`${SPEC}/traceability.json`, t);
  });
  assert.equal(r.ok, false);
  const messages = r.diagnostics.map((d) => `${d.file}:${d.line} ${d.message}`);
  assert.deepEqual(messages, [
    `${SPEC}/tasks/T1.md:6 T1: behavior REQ-001-B02 is not mapped to T1 in traceability.json (it is mapped to T2)`,
    `${SPEC}/tasks/T2.md:6 T2: behavior REQ-002-B01 is not mapped to T2 in traceability.json (it has no task there)`,
  ]);
});

test('unknown behaviors, dependency cycles, tasks without owns, corrupt task states and missing files are refused', () => {
  const r = check({}, (repo) => {
    repo.write(`${SPEC}/tasks/T1.md`, repo.read(`${SPEC}/tasks/T1.md`).replace('depends_on: []', 'depends_on: [T2]').replace('REQ-001-B02]', 'REQ-001-B02, REQ-001-B07]'));
    repo.write(`${SPEC}/tasks/T2.md`, repo.read(`${SPEC}/tasks/T2.md`).replace('owns: [src/format.js, tests/format.test.js]', 'owns: []'));
    repo.write(`${SPEC}/task-states/T1.state.json`, '{ not json');
  });
  assert.deepEqual(new Set(codes(r)), new Set(['dependency-cycle', 'task-without-owns', 'unknown-behavior', 'json-syntax']));
  const missing = check({}, (repo) => {
    repo.write(`${SPEC}/requirements.json`, '{');
    rmSync(repo.path(`${SPEC}/plan.md`));
  });
  assert.ok(codes(missing).includes('missing-requirements'));
  assert.ok(codes(missing).includes('missing-plan'));
});
