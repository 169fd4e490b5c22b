import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { parseJsonDocument } from '../../../src/core/diagnostics/jsonDocument';
import { assertBadInputAsZod, assertPlainAsZod, variants } from './plainAsZod';
import { normalizeRequirements, plainRequirementsFile, REQUIREMENTS_FILE, RequirementsFileSchema } from '../../../src/core/files/requirements';

const specDir = resolve(__dirname, '../../fixtures/files/repo/specs/2026-11-20+user-login');
const parse = (text: string) => parseJsonDocument('specs/s/requirements.json', text, RequirementsFileSchema());
const brief = (d: { line: number; column: number; message: string }) => `${d.line}:${d.column} ${d.message}`;

const behavior = (id: string, extra = '') => `{ "id": "${id}", "category": "happy-path", "description": "登录成功", "status": "failing", "acceptance": ["返回 200"]${extra} }`;

describe('requirements.json, object form', () => {
  const text = readFileSync(join(specDir, REQUIREMENTS_FILE), 'utf8');

  it('reads a realistic ledger keyed by id, with test_plan and applicability', () => {
    const { value, diagnostics } = parse(text);
    assert.deepEqual(diagnostics, []);
    const ledger = normalizeRequirements(value!);
    assert.equal(ledger.form, 'object');
    assert.deepEqual(
      ledger.requirements.map((r) => r.id),
      ['REQ-001', 'REQ-002'],
    );
    const [req1, req2] = ledger.requirements;
    assert.equal(req1.status, 'in_progress');
    assert.deepEqual(req1.types, ['functional', 'input']);
    assert.deepEqual(req1.required_categories, ['happy-path', 'invalid-input']);
    assert.deepEqual(
      req1.behaviors.map((b) => `${b.id}:${b.category}:${b.applicability ?? '-'}`),
      ['REQ-001-B01:happy-path:applicable', 'REQ-001-B02:invalid-input:applicable', 'REQ-001-B03:concurrency:not-applicable'],
    );
    assert.deepEqual(req1.behaviors[0].test_plan, {
      strategy: 'integration',
      inputs: ['alice@example.com / correct-password'],
      expected: ['200', 'token is a 64-char hex string'],
      coverage_target: '100%',
    });
    assert.equal(req1.behaviors[1].test_plan!.coverage_target, 90);
    assert.equal(req2.behaviors[0].description, '第 5 次错误后账户进入锁定状态');
    assert.equal(req2.required_categories, undefined);
  });

  it('takes the id from the key, even when the entry names another', () => {
    const { value } = parse(`{"requirements": {"REQ-007": {"id": "REQ-999", "status": "passing", "acceptance": [], "behaviors": []}}}`);
    assert.deepEqual(
      normalizeRequirements(value!).requirements.map((r) => r.id),
      ['REQ-007'],
    );
  });

  it('reports a wrong requirement status at its key', () => {
    const bad = ['{', '  "requirements": {', '    "REQ-001": {', '      "status": "done",', '      "acceptance": [],', '      "behaviors": []', '    }', '  }', '}'].join('\n');
    assert.deepEqual(parse(bad).diagnostics.map(brief), [
      '4:7 specs/s/requirements.json: "requirements.REQ-001.status": Invalid option: expected one of "failing"|"in_progress"|"candidate_implemented"|"passing"|"blocked"|"superseded"',
    ]);
  });

  it('reports a key that is not a requirement id at that key', () => {
    const bad = '{\n  "requirements": {\n    "REQ-1": {\n      "status": "failing",\n      "acceptance": [],\n      "behaviors": []\n    }\n  }\n}';
    assert.deepEqual(parse(bad).diagnostics.map(brief), ['3:5 specs/s/requirements.json: "requirements.REQ-1": invalid key: requirement id must look like REQ-001']);
  });

  it('reports a bad behavior id, a wrong category and an empty acceptance inside a requirement', () => {
    const bad = [
      '{',
      '  "requirements": {',
      '    "REQ-001": {',
      '      "status": "failing",',
      '      "acceptance": [],',
      '      "behaviors": [',
      `        ${behavior('REQ-001-B1')},`,
      '        {',
      '          "id": "REQ-001-B02",',
      '          "category": "edge-case",',
      '          "description": "x",',
      '          "status": "failing",',
      '          "acceptance": []',
      '        }',
      '      ]',
      '    }',
      '  }',
      '}',
    ].join('\n');
    assert.deepEqual(parse(bad).diagnostics.map(brief), [
      '7:11 specs/s/requirements.json: "requirements.REQ-001.behaviors.0.id": behavior id must look like REQ-001-B01',
      '10:11 specs/s/requirements.json: "requirements.REQ-001.behaviors.1.category": Invalid option: expected one of "happy-path"|"boundary"|"invalid-input"|"authorization"|"state-transition"|"idempotency"|"concurrency"|"atomicity"|"external-failure"|"compatibility"|"security"|"performance"|"observability"|"recovery"|"forbidden-behavior"',
      '13:11 specs/s/requirements.json: "requirements.REQ-001.behaviors.1.acceptance": a behavior needs at least one acceptance criterion',
    ]);
  });

  it('reports a missing behaviors list at the requirement', () => {
    const bad = '{\n  "requirements": {\n    "REQ-002": {\n      "status": "failing",\n      "acceptance": []\n    }\n  }\n}';
    assert.deepEqual(parse(bad).diagnostics.map(brief), ['3:5 specs/s/requirements.json: "requirements.REQ-002.behaviors": Invalid input: expected array, received undefined']);
  });

  it('reports an applicability and a test_plan of the wrong shape', () => {
    const bad = `{\n  "requirements": {\n    "REQ-001": {\n      "status": "failing",\n      "acceptance": [],\n      "behaviors": [\n        ${behavior('REQ-001-B01', ', "applicability": "n/a", "test_plan": []')}\n      ]\n    }\n  }\n}`;
    const messages = parse(bad).diagnostics.map((d) => `${d.line} ${d.message.replace('specs/s/requirements.json: ', '')}`);
    assert.deepEqual(messages, [
      '7 "requirements.REQ-001.behaviors.0.test_plan": Invalid input: expected object, received array',
      '7 "requirements.REQ-001.behaviors.0.applicability": Invalid option: expected one of "applicable"|"not-applicable"|"requires-clarification"',
    ]);
  });
});

describe('requirements.json, array form', () => {
  const text = [
    '{',
    '  "requirements": [',
    '    {',
    '      "id": "REQ-001",',
    '      "status": "passing",',
    '      "types": ["functional"],',
    '      "acceptance": ["登录成功"],',
    '      "behaviors": [',
    `        ${behavior('REQ-001-B01')}`,
    '      ],',
    '      "owner": "auth-team"',
    '    },',
    '    {',
    '      "id": "REQ-1000",',
    '      "status": "blocked",',
    '      "acceptance": [],',
    '      "behaviors": []',
    '    }',
    '  ]',
    '}',
  ].join('\n');

  it('reads requirements with ids, keeping unknown keys', () => {
    const { value, diagnostics } = parse(text);
    assert.deepEqual(diagnostics, []);
    const ledger = normalizeRequirements(value!);
    assert.equal(ledger.form, 'array');
    assert.deepEqual(
      ledger.requirements.map((r) => `${r.id}:${r.status}`),
      ['REQ-001:passing', 'REQ-1000:blocked'],
    );
    assert.equal(ledger.requirements[0].owner, 'auth-team');
    assert.equal(ledger.requirements[0].behaviors[0].id, 'REQ-001-B01');
  });

  it('reports a bad id pattern at the id key', () => {
    assert.deepEqual(parse(text.replace('"REQ-1000"', '"REQ-10a"')).diagnostics.map(brief), ['14:7 specs/s/requirements.json: "requirements.1.id": requirement id must look like REQ-001']);
  });

  it('reports a missing id at the entry', () => {
    assert.deepEqual(parse(text.replace('      "id": "REQ-1000",\n', '')).diagnostics.map(brief), [
      '13:5 specs/s/requirements.json: "requirements.1.id": Invalid input: expected string, received undefined',
    ]);
  });

  it('reports a requirements value of neither form at its key', () => {
    assert.deepEqual(parse('{\n  "requirements": "REQ-001"\n}').diagnostics.map(brief), ['2:3 specs/s/requirements.json: "requirements": Invalid input: expected array or record']);
    assert.deepEqual(parse('{\n  "reqs": []\n}').diagnostics.map(brief), ['1:1 specs/s/requirements.json: "requirements": Invalid input: expected array or record']);
  });
});

describe("plainRequirementsFile (the status run's check without zod)", () => {
  const goodBehavior = {
    id: 'REQ-001-B01',
    category: 'happy-path',
    description: 'logs in',
    status: 'failing',
    acceptance: ['200'],
    test_plan: { strategy: 'unit', inputs: ['x', 1], expected: [{ a: 1 }], coverage_target: 80 },
    applicability: 'applicable',
  };
  const goodEntry = { status: 'in_progress', types: ['functional'], required_categories: ['happy-path'], acceptance: ['works'], behaviors: [goodBehavior] };
  /** Each value a key can hold here: what loom writes, and what it must not. */
  const behaviorValues: Record<string, unknown[]> = {
    id: ['REQ-001-B02', 'REQ-1-B1', 3],
    category: ['error-path', 'nonsense', null],
    description: ['x', '', 4],
    status: ['passing', 'done', null],
    acceptance: [['a', 'b'], [], [1], 'a'],
    test_plan: [{}, { coverage_target: '90%' }, { coverage_target: true }, { inputs: 'x' }, { strategy: 3 }, { extra: 1 }, null],
    applicability: ['not-applicable', 'maybe'],
    note: ['kept'],
  };
  const entryValues: Record<string, unknown[]> = {
    status: ['passing', 'unknown'],
    types: [[], ['a', 'b'], [1], 'a'],
    required_categories: [['error-path'], ['nonsense']],
    acceptance: [[], ['a'], 'a'],
    behaviors: [[], 'x', [null]],
    note: [{ a: 1 }],
  };
  const entries = [...variants(goodEntry, entryValues), ...variants(goodBehavior, behaviorValues).map((b) => ({ ...goodEntry, behaviors: [goodBehavior, b] }))];
  const inputs: unknown[] = [null, [], {}, { requirements: 'x' }, { requirements: [] }, { requirements: {} }, { requirements: [goodEntry] }, { requirements: { 'REQ-001': goodEntry }, extra: 1 }];
  for (const entry of entries) {
    inputs.push({ requirements: { 'REQ-001': entry } });
    inputs.push({ requirements: [{ id: 'REQ-001', ...entry }] });
    inputs.push({ requirements: [{ ...entry, id: 'REQ-002' }] });
  }
  for (const bad of ['REQ-1', 'req-001', 'constructor']) {
    inputs.push({ requirements: { [bad]: goodEntry } });
    inputs.push({ requirements: [{ id: bad, ...goodEntry }] });
  }

  it('gives what zod gives, key order included, or leaves the value to zod', () => {
    assertPlainAsZod(inputs, plainRequirementsFile, RequirementsFileSchema());
  });

  it('answers for the ledger loom writes', () => {
    const raw = JSON.parse(readFileSync(join(specDir, REQUIREMENTS_FILE), 'utf8'));
    assert.equal(JSON.stringify(plainRequirementsFile(raw)), JSON.stringify(RequirementsFileSchema().parse(raw)));
  });

  it('names the file and the key on bad input, as zod alone does', () => {
    assertBadInputAsZod(
      'specs/s/requirements.json',
      [
        `{"requirements": [{"id": "REQ-001", "status": "failing", "acceptance": [], "behaviors": [${behavior('REQ-001-B01', ', "category": "odd"')}]}]}`,
        '{"requirements": {"REQ-1": {"status": "failing", "acceptance": [], "behaviors": []}}}',
        '{"requirements": {"REQ-001": {"status": "failing", "acceptance": "a", "behaviors": []}}}',
      ],
      plainRequirementsFile,
      RequirementsFileSchema(),
    );
  });
});
