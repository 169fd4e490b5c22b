import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { memberOf, parseJsonTree, scanJson, type JsonNode } from '../../../src/core/files/jsonTree';

/** The text each span covers, to read the tree against the source. */
function spans(text: string, node: JsonNode): unknown {
  const own = text.slice(node.start, node.end);
  if (node.type === 'object') return { own, members: node.members.map((m) => ({ key: text.slice(m.keyStart, m.keyEnd), value: spans(text, m.value) })) };
  if (node.type === 'array') return { own, items: node.items.map((x) => spans(text, x)) };
  return own;
}

describe('parseJsonTree', () => {
  it('records the span of every key and value', () => {
    const text = '{\n  "a": 1,\n  "list": ["x", { "deep": true }],\n  "e": {}\n}\n';
    const root = parseJsonTree(text)!;
    assert.deepEqual(spans(text, root), {
      own: text.trimEnd(),
      members: [
        { key: '"a"', value: '1' },
        { key: '"list"', value: { own: '["x", { "deep": true }]', items: ['"x"', { own: '{ "deep": true }', members: [{ key: '"deep"', value: 'true' }] }] } },
        { key: '"e"', value: { own: '{}', members: [] } },
      ],
    });
  });

  it('reads the values of keys and scalars as JSON.parse does', () => {
    const text = '{"say \\"hi\\"": ["\\u4e2d\\n", "中文", -0.5e+3, 12, true, false, null, "", "\\ud800"]}';
    const root = parseJsonTree(text)!;
    assert.equal(root.type, 'object');
    const member = memberOf(root, 'say "hi"')!;
    assert.ok(member);
    const list = member.value;
    assert.equal(list.type, 'array');
    const parsed = JSON.parse(text)['say "hi"'];
    assert.deepEqual(list.type === 'array' && list.items.map((x) => (x.type === 'scalar' ? x.value : x)), parsed);
  });

  it('reads a number of any length', () => {
    const big = `${'9'.repeat(80)}.${'1'.repeat(80)}`;
    const root = parseJsonTree(`[${big}, 2]`)!;
    assert.deepEqual(spans(`[${big}, 2]`, root), { own: `[${big}, 2]`, items: [big, '2'] });
  });

  it('counts a leading byte-order mark as white space', () => {
    const text = '\uFEFF{"a": [1]}';
    const root = parseJsonTree(text)!;
    assert.equal(root.start, 1);
    assert.equal(root.end, text.length);
    assert.equal(memberOf(root, 'a')?.keyStart, 2);
  });

  it('is undefined for every text JSON.parse rejects', () => {
    const samples = ['', '  ', '{"a":1,}', '[1,]', '{"a" 1}', '{"a": "open', '"\\x"', '01', '1.', '{"a":1}\n{"b":2}', '[1,\uFEFF2]', '\uFEFF\uFEFF[]', 'nul', '"a\tb"'];
    for (const text of samples) assert.equal(parseJsonTree(text), undefined, JSON.stringify(text));
  });

  it('does not throw on a nesting deeper than the stack', () => {
    assert.equal(parseJsonTree(`${'['.repeat(200_000)}${']'.repeat(200_000)}`), undefined);
  });
});

describe('memberOf', () => {
  it('takes the last of duplicate keys, as JSON.parse does', () => {
    const text = '{"k": 1, "k": 2}';
    assert.equal(memberOf(parseJsonTree(text), 'k')?.keyStart, 9);
  });

  it('is undefined for a missing key, a prototype member or a value that is no object', () => {
    const root = parseJsonTree('{"a": [1]}');
    assert.equal(memberOf(root, 'b'), undefined);
    assert.equal(memberOf(root, 'constructor'), undefined);
    assert.equal(memberOf(memberOf(root, 'a')?.value, '0'), undefined);
    assert.equal(memberOf(undefined, 'a'), undefined);
  });
});

describe('scanJson', () => {
  it('gives no error for valid JSON, and the same tree as parseJsonTree', () => {
    const text = '{"a": [1, {"b": null}]}';
    assert.deepEqual(scanJson(text), { root: parseJsonTree(text) });
  });

  it('keeps what was read before a syntax error', () => {
    const text = '{\n  "a": 1,\n  "b": [2, tru\n}';
    const { root, error } = scanJson(text);
    assert.deepEqual(error, { offset: text.indexOf('tru'), message: "unexpected 't'" });
    assert.equal(root.type, 'object');
    assert.deepEqual(root.type === 'object' && root.members.map((m) => [m.key, m.keyStart, m.value.start]), [
      ['a', 4, 9],
      ['b', 14, 19],
    ]);
    const b = memberOf(root, 'b')!.value;
    assert.deepEqual(b.type === 'array' && b.items.map((x) => x.start), [20, 23]);
  });

  it('keeps a key whose colon is missing', () => {
    const { root, error } = scanJson('{"a" 1}');
    assert.equal(error?.offset, 5);
    assert.equal(memberOf(root, 'a')?.keyStart, 1);
  });

  it('has a root even for an empty text', () => {
    assert.deepEqual(scanJson(''), { root: { type: 'scalar', start: 0, end: 0, value: null }, error: { offset: 0, message: 'unexpected end of file' } });
  });
});
