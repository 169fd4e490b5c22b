import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { parseJsonDocument } from '../../../src/core/diagnostics/jsonDocument';
import { describePath, schemaProblems } from '../../../src/core/diagnostics/zodIssues';

const Schema = z.object({
  name: z.string(),
  count: z.number().int(),
  kind: z.enum(['a', 'b']),
  items: z.array(z.object({ id: z.string().regex(/^T\d+$/, 'id must look like T1') })).optional(),
});

/** line:column message, the way a reader checks a diagnostic by eye. */
const brief = (d: { line: number; column: number; message: string }) => `${d.line}:${d.column} ${d.message}`;

describe('parseJsonDocument', () => {
  it('returns the value and no diagnostics for a valid file', () => {
    const parsed = parseJsonDocument('x.json', '{"name": "n", "count": 2, "kind": "a"}', Schema);
    assert.deepEqual(parsed.value, { name: 'n', count: 2, kind: 'a' });
    assert.deepEqual(parsed.raw, { name: 'n', count: 2, kind: 'a' });
    assert.deepEqual(parsed.diagnostics, []);
  });

  it('reports a syntax error at its position, with no value and no raw', () => {
    const text = '{\n  "name": "n",\n  "count": 2\n  "kind": "a"\n}';
    const parsed = parseJsonDocument('specs/s/x.json', text, Schema);
    assert.equal(parsed.value, undefined);
    assert.equal(parsed.raw, undefined);
    assert.deepEqual(parsed.diagnostics, [
      {
        file: 'specs/s/x.json',
        line: 4,
        column: 3,
        severity: 'error',
        code: 'json-syntax',
        message: `specs/s/x.json is not valid JSON: expected ',' or '}' after property value but found '"'`,
      },
    ]);
  });

  it('reports each schema problem at the key that holds it, keeping raw', () => {
    const text = ['{', '  "name": "n",', '  "count": 2.5,', '  "kind": "c",', '  "items": [', '    { "id": "T1" },', '    { "id": "X" }', '  ]', '}'].join('\n');
    const parsed = parseJsonDocument('x.json', text, Schema);
    assert.equal(parsed.value, undefined);
    assert.deepEqual((parsed.raw as { count: number }).count, 2.5);
    assert.deepEqual(parsed.diagnostics.map(brief), [
      '3:3 x.json: "count": Invalid input: expected int, received number',
      '4:3 x.json: "kind": Invalid option: expected one of "a"|"b"',
      '7:7 x.json: "items.1.id": id must look like T1',
    ]);
    assert.ok(parsed.diagnostics.every((d) => d.code === 'schema' && d.severity === 'error'));
  });

  it('points a missing key at the object that lacks it', () => {
    const text = '{\n  "items": [\n    {}\n  ],\n  "name": "n",\n  "count": 1,\n  "kind": "a"\n}';
    assert.deepEqual(parseJsonDocument('x.json', text, Schema).diagnostics.map(brief), ['3:5 x.json: "items.0.id": Invalid input: expected string, received undefined']);
  });

  it('names the top level when the file is not an object', () => {
    assert.deepEqual(parseJsonDocument('x.json', '\n[1, 2]', Schema).diagnostics.map(brief), ['2:1 x.json: the top level: Invalid input: expected object, received array']);
  });

  it('ignores a byte-order mark, and counts columns without it', () => {
    assert.deepEqual(parseJsonDocument('x.json', '\ufeff{"name": "n", "count": 1, "kind": "a"}', Schema).value, { name: 'n', count: 1, kind: 'a' });
    assert.deepEqual(parseJsonDocument('x.json', '\ufeff{"name": 5, "count": 1, "kind": "a"}', Schema).diagnostics.map(brief), ['1:2 x.json: "name": Invalid input: expected string, received number']);
    assert.deepEqual(parseJsonDocument('x.json', '\ufeff{"name": 5,}', Schema).diagnostics.map(brief), ["1:12 x.json is not valid JSON: expected a string but found '}'"]);
  });

  it('reports an invalid escape where it is, not at the start of the file', () => {
    const text = '{\n  "name": "n",\n  "kind": "C:\\Users"\n}';
    assert.deepEqual(parseJsonDocument('x.json', text, Schema).diagnostics.map(brief), ['3:14 x.json is not valid JSON: invalid escape sequence in string']);
  });

  it('never throws, whatever the text', () => {
    for (const text of ['', ' ', 'null', '"', '{"a":', '\u0000', '{"a": 1e999}', '[[[[[[[[[[[[]]]]]]]]]]]]']) {
      const parsed = parseJsonDocument('x.json', text, Schema);
      assert.equal(parsed.value, undefined, text);
      assert.equal(parsed.diagnostics.length > 0, true, text);
    }
  });
});

describe('schemaProblems', () => {
  const Either = z.object({
    list: z.union([z.array(z.object({ id: z.string() })), z.record(z.string().regex(/^K\d$/, 'key must look like K1'), z.object({ n: z.number() }))]),
  });
  const problems = (value: unknown) => schemaProblems(Either.safeParse(value).error!.issues);

  it('unfolds a union into the branch that fits the value (object form)', () => {
    assert.deepEqual(problems({ list: { K1: { n: 'x' } } }), [{ path: ['list', 'K1', 'n'], message: 'Invalid input: expected number, received string' }]);
  });

  it('unfolds a union into the branch that fits the value (array form)', () => {
    assert.deepEqual(problems({ list: [{ id: 1 }] }), [{ path: ['list', 0, 'id'], message: 'Invalid input: expected string, received number' }]);
  });

  it('reports a bad record key at the key, with its own message', () => {
    assert.deepEqual(problems({ list: { bad: { n: 1 } } }), [{ path: ['list', 'bad'], message: 'invalid key: key must look like K1' }]);
  });

  it('names every expected type when the value fits no branch', () => {
    assert.deepEqual(problems({ list: 5 }), [{ path: ['list'], message: 'Invalid input: expected array or record' }]);
  });

  it('keeps a union issue as it is when several branches fit', () => {
    const Both = z.union([z.object({ a: z.string() }), z.object({ a: z.number(), b: z.string() })]);
    const out = schemaProblems(Both.safeParse({ a: true }).error!.issues);
    assert.deepEqual(out, [{ path: [], message: 'Invalid input' }]);
  });

  it('prefixes a base path', () => {
    const out = schemaProblems(z.object({ a: z.string() }).safeParse({}).error!.issues, ['x', 0]);
    assert.deepEqual(out, [{ path: ['x', 0, 'a'], message: 'Invalid input: expected string, received undefined' }]);
  });

  it('describePath names the path, or the top level', () => {
    assert.equal(describePath(['requirements', 'REQ-001', 'status']), '"requirements.REQ-001.status"');
    assert.equal(describePath(['a', 0]), '"a.0"');
    assert.equal(describePath([]), 'the top level');
  });
});
