import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { parseJsonDocument } from '../../../src/core/diagnostics/jsonDocument';
import { assertPlainAsZod } from './plainAsZod';
import { plainTaskState, TASK_STATES_DIR, taskStateFile, TaskStateSchema } from '../../../src/core/files/taskState';
import { TASK_ID_PATTERN, TASK_STATUS_ICONS, TASK_STATUSES } from '../../../src/core/files/vocabulary';
import { toJsonText } from '../../../src/core/fs/atomicWrite';

const specDir = resolve(__dirname, '../../fixtures/files/repo/specs/2026-11-20+user-login');
const read = (name: string) => readFileSync(join(specDir, TASK_STATES_DIR, name), 'utf8');
const parse = (text: string) => parseJsonDocument('specs/s/task-states/T1.state.json', text, TaskStateSchema());
const brief = (d: { line: number; column: number; message: string }) => `${d.line}:${d.column} ${d.message}`;

/** A state as loom's initTask writes it, with one field changed. */
const stateText = (field: string, value: string) =>
  [
    '{',
    '  "task_id": "T1",',
    '  "spec_dir": "specs/s",',
    '  "status": "pending",',
    '  "retry_count": 0,',
    '  "agent_session_id": null,',
    '  "created_at": "2026-11-21T08:00:00.000Z",',
    '  "updated_at": "2026-11-21T08:00:00.000Z",',
    '  "last_reviewer_result": null,',
    '  "blocker": null',
    '}',
  ]
    .map((line) => (line.startsWith(`  "${field}":`) ? `  "${field}": ${value}${line.endsWith(',') ? ',' : ''}` : line))
    .join('\n');

describe('task-states/TN.state.json', () => {
  it('lives where loom puts it', () => {
    assert.equal(taskStateFile('T12'), 'task-states/T12.state.json');
  });

  it('reads the three realistic states', () => {
    const t1 = parse(read('T1.state.json'));
    assert.deepEqual(t1.diagnostics, []);
    assert.equal(t1.value!.status, 'done');
    assert.equal(t1.value!.retry_count, 1);
    assert.equal(t1.value!.last_reviewer_result, 'PASS');
    assert.equal(t1.value!.agent_session_id, 'sess-7f3a');
    const t2 = parse(read('T2.state.json')).value!;
    assert.equal(t2.status, 'executing');
    assert.equal(t2.agent_session_id, null);
    assert.equal(t2.blocker, null);
    assert.equal(parse(read('T10.state.json')).value!.task_id, 'T10');
  });

  it('reads the state loom writes on init, nulls included', () => {
    const { value, diagnostics } = parse(stateText('status', '"pending"'));
    assert.deepEqual(diagnostics, []);
    assert.deepEqual(value, {
      task_id: 'T1',
      spec_dir: 'specs/s',
      status: 'pending',
      retry_count: 0,
      agent_session_id: null,
      created_at: '2026-11-21T08:00:00.000Z',
      updated_at: '2026-11-21T08:00:00.000Z',
      last_reviewer_result: null,
      blocker: null,
    });
  });

  it("accepts every one of loom's six statuses, and a blocked task with its blocker", () => {
    assert.deepEqual([...TASK_STATUSES], ['pending', 'executing', 'reviewing', 'done', 'failed', 'blocked']);
    for (const status of TASK_STATUSES) assert.equal(parse(stateText('status', `"${status}"`)).value?.status, status);
    const blocked = parse(stateText('blocker', '"等待 DBA 提供测试库"')).value!;
    assert.equal(blocked.blocker, '等待 DBA 提供测试库');
  });

  it('has an icon for every status, as progress.md shows them', () => {
    assert.deepEqual(TASK_STATUS_ICONS, { pending: '⏳', executing: '▶', reviewing: '🔍', done: '✅', failed: '❌', blocked: '🚫' });
  });

  it('keeps unknown keys and round-trips them', () => {
    const text = read('T1.state.json');
    const value = parse(text).value!;
    assert.equal(value.worktree_commit, '4e1d2c9');
    assert.deepEqual(JSON.parse(toJsonText(value)), JSON.parse(text));
    const updated = { ...value, status: 'reviewing' as const, retry_count: 2 };
    const reread = parse(toJsonText(updated));
    assert.deepEqual(reread.diagnostics, []);
    assert.equal(reread.value!.worktree_commit, '4e1d2c9');
    assert.equal(reread.value!.retry_count, 2);
  });

  it('defaults a missing retry_count to 0', () => {
    assert.equal(parse('{"task_id": "T3", "status": "pending"}').value!.retry_count, 0);
  });

  it('reports an unknown status at the status key', () => {
    assert.deepEqual(parse(stateText('status', '"in_review"')).diagnostics.map(brief), [
      '4:3 specs/s/task-states/T1.state.json: "status": Invalid option: expected one of "pending"|"executing"|"reviewing"|"done"|"failed"|"blocked"',
    ]);
  });

  it('reports a task id that breaks the pattern at the task_id key', () => {
    for (const bad of ['"1T"', '"T 1"', '""', `"T${'x'.repeat(64)}"`, '"T1/../x"']) {
      assert.deepEqual(parse(stateText('task_id', bad)).diagnostics.map(brief), ['2:3 specs/s/task-states/T1.state.json: "task_id": task_id must match ^[A-Za-z][A-Za-z0-9_-]{0,63}$'], bad);
    }
    for (const good of ['T1', 'fix-login_2', `T${'x'.repeat(63)}`, 'constructor']) {
      assert.equal(TASK_ID_PATTERN.test(good), true, good);
      assert.deepEqual(parse(stateText('task_id', `"${good}"`)).diagnostics, [], good);
    }
  });

  it('reports a wrong retry_count type and a negative one', () => {
    assert.deepEqual(parse(stateText('retry_count', '"2"')).diagnostics.map(brief), ['5:3 specs/s/task-states/T1.state.json: "retry_count": Invalid input: expected number, received string']);
    assert.deepEqual(parse(stateText('retry_count', '-1')).diagnostics.map(brief), ['5:3 specs/s/task-states/T1.state.json: "retry_count": Too small: expected number to be >=0']);
  });

  it('reports a missing task_id at the object', () => {
    assert.deepEqual(parse('{\n  "status": "done"\n}').diagnostics.map(brief), ['1:1 specs/s/task-states/T1.state.json: "task_id": Invalid input: expected string, received undefined']);
  });

  it('reports a syntax error at its spot', () => {
    const text = stateText('retry_count', '0,,');
    assert.deepEqual(parse(text).diagnostics.map(brief), ["5:20 specs/s/task-states/T1.state.json is not valid JSON: expected a string but found ','"]);
  });
});

describe("plainTaskState (the status run's check without zod)", () => {
  /** Every value a key can hold in these tests: what loom writes, and what it must not. */
  const values: Record<string, unknown[]> = {
    task_id: ['T1', 'fix-login_2', '1T', '', 7, null],
    spec_dir: ['specs/s', 3, null],
    status: ['pending', 'done', 'blocked', 'in_review', 'DONE', null],
    retry_count: [0, 3, -1, 1.5, '2', null, 2 ** 53],
    agent_session_id: ['a1', null, 4],
    created_at: ['2026-11-21T08:00:00.000Z', null, false],
    updated_at: ['2026-11-21T08:00:00.000Z', {}],
    last_reviewer_result: ['PASS', null, []],
    blocker: ['waits for T2', null, 1],
    extra: ['kept', { nested: [1] }],
  };
  const base = { task_id: 'T1', spec_dir: 'specs/s', status: 'pending', retry_count: 0, agent_session_id: null, created_at: 'x', updated_at: 'x', last_reviewer_result: null, blocker: null };
  const inputs: unknown[] = [null, [], 'T1', 3, {}, { status: 'done' }, { task_id: 'T1' }, { task_id: 'T1', status: 'done' }, base];
  for (const [key, list] of Object.entries(values)) {
    for (const value of list) {
      inputs.push({ ...base, [key]: value });
      const without: Record<string, unknown> = { ...base };
      delete without[key];
      inputs.push(without);
      // The keys in another order, the changed one first: zod's output has the schema's order.
      inputs.push({ [key]: value, ...Object.fromEntries(Object.entries(base).reverse()) });
    }
  }

  it('gives what zod gives, key order included, or leaves the value to zod', () => {
    assertPlainAsZod(inputs, plainTaskState, TaskStateSchema());
  });

  it('answers for every valid state loom writes', () => {
    for (const name of ['T1.state.json', 'T2.state.json']) {
      const raw = JSON.parse(read(name));
      assert.deepEqual(plainTaskState(raw), TaskStateSchema().parse(raw));
    }
  });

  it('leaves a key named __proto__ to zod and the reserved-key warning', () => {
    const text = '{"task_id": "T1", "status": "done", "__proto__": {"x": 1}}';
    assert.equal(plainTaskState(JSON.parse(text)), undefined);
    const viaPlain = parseJsonDocument('specs/s/task-states/T1.state.json', text, TaskStateSchema(), plainTaskState);
    assert.deepEqual(viaPlain.diagnostics, parse(text).diagnostics);
    assert.equal(viaPlain.diagnostics[0].code, 'reserved-key');
  });

  it('names the file and the key on bad input, as zod alone does', () => {
    for (const [key, value] of [
      ['status', '"in_review"'],
      ['task_id', '"1T"'],
      ['retry_count', '-1'],
      ['blocker', '3'],
    ] as const) {
      const text = stateText(key, value);
      const viaPlain = parseJsonDocument('specs/s/task-states/T1.state.json', text, TaskStateSchema(), plainTaskState);
      assert.equal(viaPlain.value, undefined, key);
      assert.deepEqual(viaPlain.diagnostics, parse(text).diagnostics, key);
      assert.match(viaPlain.diagnostics[0].message, new RegExp(`^specs/s/task-states/T1\\.state\\.json: "${key}"`));
    }
  });
});
