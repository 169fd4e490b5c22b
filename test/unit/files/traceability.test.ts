import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { parseJsonDocument } from '../../../src/core/diagnostics/jsonDocument';
import { assertBadInputAsZod, assertPlainAsZod } from './plainAsZod';
import { normalizeTraceability, plainTraceabilityFile, splitTestRef, TRACEABILITY_FILE, TraceabilityFileSchema } from '../../../src/core/files/traceability';

const specDir = resolve(__dirname, '../../fixtures/files/repo/specs/2026-11-20+user-login');
const parse = (text: string) => parseJsonDocument('specs/s/traceability.json', text, TraceabilityFileSchema());
const ledger = (text: string) => {
  const { value, diagnostics } = parse(text);
  assert.deepEqual(diagnostics, []);
  return normalizeTraceability(value!);
};
const brief = (d: { line: number; column: number; message: string }) => `${d.line}:${d.column} ${d.message}`;

describe('traceability.json, object form', () => {
  it('reads a realistic ledger, folding the aliases of both requirement and behavior entries', () => {
    const trace = ledger(readFileSync(join(specDir, TRACEABILITY_FILE), 'utf8'));
    assert.equal(trace.form, 'object');
    const [req1, req2] = trace.requirements;
    assert.equal(req1.id, 'REQ-001');
    assert.deepEqual(req1.tasks, ['T1', 'T10']);
    assert.deepEqual(req1.tests, ['tests/auth/login.test.ts#returns a token', 'tests/auth/login_test.py::test_bad_email']);
    assert.deepEqual(req1.evidence, ['evidence/test.log']);
    assert.deepEqual(req1.behaviors!['REQ-001-B02'], {
      tasks: ['T1'],
      tests: ['tests/auth/login_test.py::test_bad_email'],
      evidence: ['evidence/test.log'],
    });
    assert.deepEqual(req2, {
      id: 'REQ-002',
      tasks: ['T2.md'],
      tests: [],
      evidence: [],
      behaviors: { 'REQ-002-B01': { tasks: ['T2'], tests: [], evidence: [] } },
    });
  });

  it('takes the id from the key, even when the entry names another', () => {
    const trace = ledger('{"requirements": {"REQ-003": {"id": "REQ-004", "tasks": [], "tests": [], "evidence": []}}}');
    assert.deepEqual(
      trace.requirements.map((r) => r.id),
      ['REQ-003'],
    );
  });

  it('keeps behavior ids that look like Object.prototype members as plain keys', () => {
    const trace = ledger('{"requirements": {"REQ-001": {"tasks": [], "behaviors": {"constructor": {"tasks": ["T1"]}, "toString": {}}}}}');
    const behaviors = trace.requirements[0].behaviors!;
    assert.deepEqual(Object.keys(behaviors), ['constructor', 'toString']);
    assert.deepEqual(behaviors.constructor, { tasks: ['T1'], tests: [], evidence: [] });
    assert.deepEqual(behaviors.toString, { tasks: [], tests: [], evidence: [] });
  });
});

describe('traceability.json aliases', () => {
  const entry = (body: string) => ledger(`{"requirements": {"REQ-001": {${body}}}}`).requirements[0];

  it('task_ids stands for tasks', () => {
    assert.deepEqual(entry('"task_ids": ["T1", "T2"]').tasks, ['T1', 'T2']);
  });

  it('test_refs and test_ids stand for tests', () => {
    assert.deepEqual(entry('"test_refs": ["tests/a.test.ts#x"]').tests, ['tests/a.test.ts#x']);
    assert.deepEqual(entry('"test_ids": ["tests/b_test.py::y"]').tests, ['tests/b_test.py::y']);
  });

  it('evidence_refs and receipts stand for evidence', () => {
    assert.deepEqual(entry('"evidence_refs": ["evidence/a.log"]').evidence, ['evidence/a.log']);
    assert.deepEqual(entry('"receipts": ["evidence/receipt.json"]').evidence, ['evidence/receipt.json']);
  });

  it('folds aliases away, leaving only the canonical names', () => {
    const e = entry('"task_ids": ["T1"], "test_refs": ["t"], "test_ids": ["u"], "evidence_refs": ["e"], "receipts": ["r"], "note": "kept"');
    assert.deepEqual(e, { id: 'REQ-001', tasks: ['T1'], tests: ['t'], evidence: ['e'], note: 'kept' });
  });

  it('prefers the canonical name, then the first alias', () => {
    const e = entry('"tasks": ["T1"], "task_ids": ["T9"], "test_ids": ["second"], "test_refs": ["first"], "receipts": ["r"], "evidence": []');
    assert.deepEqual([e.tasks, e.tests, e.evidence], [['T1'], ['first'], []]);
  });

  it('treats every list as empty when absent', () => {
    assert.deepEqual(entry(''), { id: 'REQ-001', tasks: [], tests: [], evidence: [] });
  });

  it('reports a wrong alias value at the alias key the file really has', () => {
    const text = [
      '{',
      '  "requirements": {',
      '    "REQ-001": {',
      '      "task_ids": ["T1"],',
      '      "test_refs": "tests/a.test.ts",',
      '      "behaviors": {',
      '        "REQ-001-B01": {',
      '          "receipts": [1]',
      '        }',
      '      }',
      '    }',
      '  }',
      '}',
    ].join('\n');
    assert.deepEqual(parse(text).diagnostics.map(brief), [
      '5:7 specs/s/traceability.json: "requirements.REQ-001.test_refs": Invalid input: expected array, received string',
      '8:24 specs/s/traceability.json: "requirements.REQ-001.behaviors.REQ-001-B01.receipts.0": Invalid input: expected string, received number',
    ]);
  });
});

describe('traceability.json, array form', () => {
  const text = [
    '{',
    '  "requirements": [',
    '    {',
    '      "id": "REQ-001",',
    '      "tasks": ["T1"],',
    '      "tests": ["tests/login.test.ts"],',
    '      "evidence": ["evidence/test.log"],',
    '      "behaviors": {',
    '        "REQ-001-B01": { "task_ids": ["T1"], "test_ids": [], "evidence_refs": [] }',
    '      }',
    '    },',
    '    {',
    '      "id": "REQ-002",',
    '      "task_ids": ["T2"]',
    '    }',
    '  ]',
    '}',
  ].join('\n');

  it('reads entries with ids and folds aliases', () => {
    const trace = ledger(text);
    assert.equal(trace.form, 'array');
    assert.deepEqual(trace.requirements, [
      {
        id: 'REQ-001',
        tasks: ['T1'],
        tests: ['tests/login.test.ts'],
        evidence: ['evidence/test.log'],
        behaviors: { 'REQ-001-B01': { tasks: ['T1'], tests: [], evidence: [] } },
      },
      { id: 'REQ-002', tasks: ['T2'], tests: [], evidence: [] },
    ]);
  });

  it('reports a bad id at the id key', () => {
    assert.deepEqual(parse(text.replace('"REQ-002"', '"req-2"')).diagnostics.map(brief), ['13:7 specs/s/traceability.json: "requirements.1.id": requirement id must look like REQ-001']);
  });

  it('reports a task list of the wrong type at its key', () => {
    assert.deepEqual(parse(text.replace('"tasks": ["T1"]', '"tasks": {"T1": true}')).diagnostics.map(brief), [
      '5:7 specs/s/traceability.json: "requirements.0.tasks": Invalid input: expected array, received object',
    ]);
  });

  it('reports a syntax error at its spot', () => {
    assert.deepEqual(parse(text.replace('"tests": ["tests/login.test.ts"],', '"tests": ["tests/login.test.ts"]')).diagnostics.map(brief), [
      `7:7 specs/s/traceability.json is not valid JSON: expected ',' or '}' after property value but found '"'`,
    ]);
  });
});

describe('splitTestRef', () => {
  it('splits a #name off a test file', () => {
    assert.deepEqual(splitTestRef('tests/auth/login.test.ts#returns a token'), { file: 'tests/auth/login.test.ts', name: 'returns a token' });
  });

  it('splits a ::name off a test file, keeping nested ::', () => {
    assert.deepEqual(splitTestRef('tests/auth/login_test.py::test_bad_email'), { file: 'tests/auth/login_test.py', name: 'test_bad_email' });
    assert.deepEqual(splitTestRef('tests/test_x.py::TestLogin::test_ok'), { file: 'tests/test_x.py', name: 'TestLogin::test_ok' });
  });

  it('cuts at whichever separator comes first', () => {
    assert.deepEqual(splitTestRef('a.test.ts#x::y'), { file: 'a.test.ts', name: 'x::y' });
    assert.deepEqual(splitTestRef('a_test.py::x#y'), { file: 'a_test.py', name: 'x#y' });
  });

  it('leaves a path with neither alone', () => {
    assert.deepEqual(splitTestRef('tests/auth/login.test.ts'), { file: 'tests/auth/login.test.ts' });
    assert.deepEqual(splitTestRef('C:/work/tests/a.test.ts'), { file: 'C:/work/tests/a.test.ts' });
    assert.deepEqual(splitTestRef('tests/登录.test.ts'), { file: 'tests/登录.test.ts' });
  });

  it('gives no name for a trailing separator', () => {
    assert.deepEqual(splitTestRef('tests/a.test.ts#'), { file: 'tests/a.test.ts', name: undefined });
    assert.deepEqual(splitTestRef('tests/a_test.py::'), { file: 'tests/a_test.py', name: undefined });
  });

  it('trims whitespace around the reference and its parts, as loom does', () => {
    assert.deepEqual(splitTestRef('  tests/a.test.ts # works \n'), { file: 'tests/a.test.ts', name: 'works' });
    assert.deepEqual(splitTestRef(' tests/a.test.ts '), { file: 'tests/a.test.ts' });
  });
});

describe("plainTraceabilityFile (the status run's check without zod)", () => {
  /** Each value a list, an entry or a behavior can hold here: what loom writes, aliases, and what it must not. */
  const lists: unknown[] = [['T1'], [], ['a', 'b'], 'T1', [1], null, {}];
  const listKeys = ['tasks', 'task_ids', 'tests', 'test_refs', 'test_ids', 'evidence', 'evidence_refs', 'receipts', 'note'];
  const behavior = { tasks: ['T1'], tests: ['tests/a.test.ts#x'], evidence: ['evidence/test.log'] };
  const entry = { tasks: ['T1'], tests: [], evidence: [], behaviors: { 'REQ-001-B01': behavior } };
  const inputs: unknown[] = [null, [], 'x', {}, { requirements: [] }, { requirements: [{ id: 'REQ-001', ...entry }] }, { requirements: {} }, { requirements: { 'REQ-001': entry }, extra: 1 }];
  for (const key of listKeys) {
    for (const value of lists) {
      const without: Record<string, unknown> = { ...entry };
      delete without[key];
      inputs.push({ requirements: { 'REQ-001': { ...entry, [key]: value } } });
      inputs.push({ requirements: { 'REQ-001': { [key]: value, ...Object.fromEntries(Object.entries(entry).reverse()) } } });
      inputs.push({ requirements: { 'REQ-001': without, 'REQ-002': { behaviors: { B: { [key]: value, ...behavior } } } } });
      inputs.push({ requirements: { 'REQ-002': { ...entry, behaviors: { B: { ...behavior, [key]: value }, C: {} } } } });
    }
  }
  for (const bad of ['REQ-1', 'req-001', 'constructor', '']) inputs.push({ requirements: { [bad]: entry } });
  for (const behaviors of [null, [], 'x', { B: null }, { B: [] }, { B: 'x' }]) inputs.push({ requirements: { 'REQ-001': { ...entry, behaviors } } });

  it('gives what zod gives, key order included, or leaves the value to zod', () => {
    assertPlainAsZod(inputs, plainTraceabilityFile, TraceabilityFileSchema());
  });

  it('answers for the ledger loom writes', () => {
    const raw = JSON.parse(readFileSync(join(specDir, TRACEABILITY_FILE), 'utf8'));
    assert.equal(JSON.stringify(plainTraceabilityFile(raw)), JSON.stringify(TraceabilityFileSchema().parse(raw)));
  });

  it('names the file and the key on bad input, as zod alone does, and leaves a __proto__ key to it', () => {
    assertBadInputAsZod(
      'specs/s/traceability.json',
      [
        '{"requirements": {"REQ-001": {"tasks": "T1"}}}',
        '{"requirements": {"REQ-1": {"tasks": ["T1"]}}}',
        '{"requirements": {"REQ-001": {"behaviors": {"B": {"tests": [3]}}}}}',
        '{"requirements": {"REQ-001": {"tasks": ["T1"], "__proto__": {"x": 1}}}}',
      ],
      plainTraceabilityFile,
      TraceabilityFileSchema(),
    );
  });
});
