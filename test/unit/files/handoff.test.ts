import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { parseJsonDocument } from '../../../src/core/diagnostics/jsonDocument';
import { HANDOFFS_DIR, HandoffSchema, plainHandoff } from '../../../src/core/files/handoff';
import { assertBadInputAsZod, assertPlainAsZod, variants } from './plainAsZod';
import { HANDOFF_STATUSES } from '../../../src/core/files/vocabulary';
import { toJsonText } from '../../../src/core/fs/atomicWrite';

const specDir = resolve(__dirname, '../../fixtures/files/repo/specs/2026-11-20+user-login');
const read = (name: string) => readFileSync(join(specDir, HANDOFFS_DIR, name), 'utf8');
const parse = (text: string) => parseJsonDocument('specs/s/handoffs/T1.json', text, HandoffSchema());
const brief = (d: { line: number; column: number; message: string }) => `${d.line}:${d.column} ${d.message}`;

describe('handoffs/*.json', () => {
  it('reads a stage handoff with fingerprints, as loom writes it', () => {
    const { value, diagnostics } = parse(read('brainstorming.json'));
    assert.deepEqual(diagnostics, []);
    assert.equal(value!.status, 'done');
    assert.equal(value!.stage, 'brainstorming');
    assert.equal(value!.task_id, 'brainstorming');
    assert.equal(value!.summary, '需求已澄清：邮箱密码登录 + 账户锁定');
    assert.deepEqual(value!.artifacts, ['spec.md', 'requirements.json']);
    assert.deepEqual(value!.basis_fingerprints, { 'spec.md': '6d0f3a8c2b1e4f5a6d0f3a8c2b1e4f5a6d0f3a8c2b1e4f5a6d0f3a8c2b1e4f5a' });
    assert.equal(value!.written_at, '2026-11-20T09:10:00.000Z');
  });

  it('reads a task handoff with exported interfaces', () => {
    const { value, diagnostics } = parse(read('T1.json'));
    assert.deepEqual(diagnostics, []);
    assert.deepEqual(value!.exported_interfaces, [
      { name: 'login', path: 'src/auth/login.ts', signature: 'login(email: string, password: string): Promise<Session>' },
      { name: 'SessionStore', path: 'src/auth/session/store.ts' },
    ]);
    assert.deepEqual(value!.breaking_changes, []);
    assert.deepEqual(value!.requirements_verified, ['REQ-001-B01', 'REQ-001-B02']);
    assert.equal(value!.notes, 'bcrypt cost 12; see evidence/test.log');
    assert.deepEqual(value!.artifact_fingerprints, {});
  });

  it('accepts notes as a list, defaults artifacts, keeps unknown keys', () => {
    const { value } = parse('{"status": "partial", "summary": "", "notes": ["a", "b"], "next_steps": ["T3"]}');
    assert.deepEqual(value, { status: 'partial', summary: '', artifacts: [], notes: ['a', 'b'], next_steps: ['T3'] });
    assert.deepEqual(JSON.parse(toJsonText(value)), { status: 'partial', summary: '', artifacts: [], notes: ['a', 'b'], next_steps: ['T3'] });
  });

  it("accepts each of loom's four statuses", () => {
    assert.deepEqual([...HANDOFF_STATUSES], ['done', 'partial', 'blocked', 'failed']);
    for (const status of HANDOFF_STATUSES) assert.equal(parse(`{"status": "${status}", "summary": "s"}`).value?.status, status);
  });

  // state-store.js: HANDOFF_STATUSES is checked by loom's writer only; its readers
  // (readAllHandoffs, findStaleHandoffs, _buildHandoffBlock) take any object.
  it("reads what loom writes: handoff write without --summary, and the compaction hook's pending status", () => {
    const withoutSummary =
      '{\n  "status": "done",\n  "stage": "planning",\n  "task_id": "planning",\n  "basis_fingerprints": {},\n  "artifact_fingerprints": {},\n  "written_at": "2026-11-29T09:00:00.000Z"\n}';
    assert.deepEqual(parse(withoutSummary).diagnostics.map(brief), []);
    assert.equal(parse(withoutSummary).value?.summary, undefined);
    const pending = '{\n  "stage": "executing",\n  "status": "pending",\n  "summary": "context compacted",\n  "artifacts": []\n}';
    assert.deepEqual(parse(pending).diagnostics.map(brief), []);
    assert.equal(parse(pending).value?.status, 'pending');
  });

  it('reports an exported interface without a path at that interface', () => {
    const text = '{\n  "status": "done",\n  "summary": "s",\n  "exported_interfaces": [\n    { "name": "login" }\n  ]\n}';
    assert.deepEqual(parse(text).diagnostics.map(brief), ['5:5 specs/s/handoffs/T1.json: "exported_interfaces.0.path": Invalid input: expected string, received undefined']);
  });

  it('reports a fingerprint that is not a string at its path key', () => {
    const text = '{\n  "status": "done",\n  "summary": "s",\n  "basis_fingerprints": {\n    "spec.md": null\n  }\n}';
    assert.deepEqual(parse(text).diagnostics.map(brief), ['5:5 specs/s/handoffs/T1.json: "basis_fingerprints.spec.md": Invalid input: expected string, received null']);
  });
});

describe("plainHandoff (the status run's check without zod)", () => {
  const good = {
    status: 'done',
    summary: 'done it',
    artifacts: ['src/a.ts'],
    task_id: 'T1',
    stage: 'executing',
    exported_interfaces: [{ name: 'f', path: 'src/a.ts', signature: 'f(): void', extra: 1 }],
    breaking_changes: [{ what: 'x' }, 'y'],
    requirements_verified: ['REQ-001'],
    notes: 'a note',
    written_at: '2026-11-20T09:10:00.000Z',
    basis_fingerprints: { 'spec.md': 'abc' },
    worktree_fingerprints: { 'src/a.ts': 'def' },
    artifact_fingerprints: {},
  };
  const values: Record<string, unknown[]> = {
    status: ['pending', 'anything', 3, null],
    summary: ['', 1],
    artifacts: [[], ['a', 'b'], [1], 'a', null],
    task_id: ['T2', 2],
    stage: ['planning', false],
    exported_interfaces: [[], [{ name: 'g', path: 'p' }], [{ name: 'g' }], [{ name: 'g', path: 'p', signature: 1 }], 'x'],
    breaking_changes: [[], 'x'],
    requirements_verified: [[], [1]],
    notes: [['a', 'b'], [1], 3, null],
    written_at: [1],
    basis_fingerprints: [{}, { a: 1 }, ['a'], null],
    worktree_fingerprints: [{ b: 'c' }, 'x'],
    artifact_fingerprints: [{ c: 'd' }, { c: null }],
    kept: [{ any: 'thing' }],
  };
  const inputs: unknown[] = [null, [], {}, 'x', 3, ...variants(good, values), ...variants({ status: 'done' }, values)];

  it('gives what zod gives, key order included, or leaves the value to zod', () => {
    assertPlainAsZod(inputs, plainHandoff(), HandoffSchema());
  });

  it('answers for the handoffs loom writes', () => {
    for (const name of ['brainstorming.json', 'T1.json']) {
      const raw = JSON.parse(read(name));
      assert.ok(plainHandoff()(raw), name);
      assert.equal(JSON.stringify(plainHandoff()(raw)), JSON.stringify(HandoffSchema().parse(raw)), name);
    }
  });

  it('names the file and the key on bad input, as zod alone does', () => {
    assertBadInputAsZod('specs/s/handoffs/T1.json', ['{"artifacts": "a"}', '{"notes": 3}', '{"basis_fingerprints": {"a": 1}}', '[]'], plainHandoff(), HandoffSchema());
  });
});
