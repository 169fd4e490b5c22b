import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { locateJson } from '../../../src/core/diagnostics/jsonLocator';
import { positionAt } from '../../../src/core/diagnostics/textPosition';

/** Where the locator puts a path, as line:column. */
const at = (text: string, path: (string | number)[]) => {
  const p = positionAt(text, locateJson(text).offsetOf(path));
  return `${p.line}:${p.column}`;
};
/** Where the locator puts the syntax error, as line:column plus its message. */
const syntaxError = (text: string) => {
  const { error } = locateJson(text);
  if (!error) return undefined;
  const p = positionAt(text, error.offset);
  return `${p.line}:${p.column} ${error.message}`;
};

const doc = `{
  "a": 1,
  "list": [
    "x",
    { "deep": true }
  ],
  "obj": {
    "inner": null
  }
}`;

describe('locateJson on valid JSON', () => {
  it('finds no error', () => {
    assert.equal(locateJson(doc).error, undefined);
  });

  it('points object members at their key', () => {
    assert.equal(at(doc, ['a']), '2:3');
    assert.equal(at(doc, ['list']), '3:3');
    assert.equal(at(doc, ['obj', 'inner']), '8:5');
  });

  it('points array items at the item', () => {
    assert.equal(at(doc, ['list', 0]), '4:5');
    assert.equal(at(doc, ['list', 1]), '5:5');
    assert.equal(at(doc, ['list', 1, 'deep']), '5:7');
  });

  it('falls back to the nearest existing ancestor', () => {
    assert.equal(at(doc, ['obj', 'missing']), '7:3');
    assert.equal(at(doc, ['list', 7, 'x']), '3:3');
    assert.equal(at(doc, ['nothing', 'at', 'all']), '1:1');
    assert.equal(at(doc, []), '1:1');
  });

  it('uses the last of duplicate keys, as JSON.parse does', () => {
    const dup = '{\n  "k": 1,\n  "k": 2\n}';
    assert.equal(at(dup, ['k']), '3:3');
  });

  it('reads keys with escapes and non-ASCII text', () => {
    const text = '{\n  "say \\"hi\\"": 1,\n  "描述": "中文\\u4e2d"\n}';
    assert.equal(locateJson(text).error, undefined);
    assert.equal(at(text, ['say "hi"']), '2:3');
    assert.equal(at(text, ['描述']), '3:3');
  });

  it('accepts every JSON literal and number form', () => {
    assert.equal(locateJson('[true, false, null, -0.5e+3, 0, 12, "s"]').error, undefined);
    assert.equal(locateJson('  {}  \n').error, undefined);
    assert.equal(locateJson('[]').error, undefined);
  });

  it('reads numbers of any length and still locates what follows them', () => {
    const text = `{\n  "big": ${'9'.repeat(80)}.${'1'.repeat(80)},\n  "after": 1\n}`;
    assert.equal(locateJson(text).error, undefined);
    assert.equal(at(text, ['after']), '3:3');
  });

  it('counts a leading byte-order mark as white space', () => {
    const text = `\uFEFF${doc}`;
    assert.equal(locateJson(text).error, undefined);
    assert.equal(locateJson(text).offsetOf([]), 1);
    assert.equal(locateJson(text).offsetOf(['obj', 'inner']), doc.indexOf('"inner"') + 1);
    assert.equal(locateJson(text).offsetOf(['list', 1, 'deep']), doc.indexOf('"deep"') + 1);
  });

  it('points at the root value after leading white space', () => {
    assert.equal(locateJson('  "s"').offsetOf([]), 2);
    assert.equal(locateJson('\n\n  [1]').offsetOf([0]), 5);
  });

  it('takes an array index as a number or as its decimal text', () => {
    assert.equal(at(doc, ['list', '1']), '5:5');
    assert.equal(at(doc, ['list', '01']), '3:3');
    assert.equal(at(doc, ['list', '']), '3:3');
    assert.equal(at(doc, ['list', 'length']), '3:3');
    assert.equal(at(doc, ['list', -1]), '3:3');
  });

  it('takes a key given as a number', () => {
    assert.equal(at('{\n  "0": true\n}', [0]), '2:3');
  });

  it('follows the last of duplicate keys into its value, as JSON.parse does', () => {
    const dup = '{\n  "k": { "x": 1 },\n  "k": { "y": 2 }\n}';
    assert.equal(at(dup, ['k', 'y']), '3:10');
    assert.equal(at(dup, ['k', 'x']), '3:3');
  });

  it('falls back past a scalar to its key or item', () => {
    assert.equal(at(doc, ['a', 'b']), '2:3');
    assert.equal(at(doc, ['list', 0, 0]), '4:5');
    assert.equal(at(doc, ['obj', 'inner', 'x', 1]), '8:5');
  });

  it('does not treat a key named like a prototype member specially', () => {
    const text = '{\n  "constructor": {\n    "__proto__": 1\n  }\n}';
    assert.equal(at(text, ['constructor']), '2:3');
    assert.equal(at(text, ['constructor', '__proto__']), '3:5');
    assert.equal(at(text, ['toString']), '1:1');
  });
});

describe('locateJson on broken JSON', () => {
  it('finds a missing comma on line 4 at the start of the next member', () => {
    const text = '{\n  "spec_dir": "specs/a",\n  "pipeline_type": "feature",\n  "current_stage": "planning"\n  "loom_version": "2.1.0"\n}';
    assert.equal(syntaxError(text), `5:3 expected ',' or '}' after property value but found '"'`);
  });

  it('finds a trailing comma at the closing brace', () => {
    assert.equal(syntaxError('{\n  "a": 1,\n}'), "3:1 expected a string but found '}'");
  });

  it('finds a missing comma in an array', () => {
    assert.equal(syntaxError('[\n  1\n  2\n]'), "3:3 expected ',' or ']' after array item but found '2'");
  });

  it('finds a missing colon', () => {
    assert.equal(syntaxError('{\n  "a" 1\n}'), "2:7 expected ':' after property name but found '1'");
  });

  it('finds an unquoted key', () => {
    assert.equal(syntaxError('{\n  a: 1\n}'), "2:3 expected a string but found 'a'");
  });

  it('finds a misspelt literal', () => {
    assert.equal(syntaxError('{"a": tru}'), "1:7 unexpected 't'");
    assert.equal(syntaxError('{"a": nul }'), "1:7 unexpected 'n'");
  });

  it('finds a number with a leading zero', () => {
    assert.equal(syntaxError('{"a": 01}'), "1:8 expected ',' or '}' after property value but found '1'");
  });

  it('finds an unterminated string at the end of the file', () => {
    assert.equal(syntaxError('{\n  "a": "open\n'), '2:13 unescaped control character in string');
    assert.equal(syntaxError('{"a": "open'), '1:12 unterminated string');
  });

  it('finds a raw tab inside a string', () => {
    assert.equal(syntaxError('{"a": "x\ty"}'), '1:9 unescaped control character in string');
  });

  it('finds an invalid escape where it is', () => {
    assert.equal(syntaxError('{\n  "a": 1,\n  "b": "C:\\path"\n}'), '3:11 invalid escape sequence in string');
    assert.equal(syntaxError('{"a": "\\u12G4"}'), '1:8 invalid escape sequence in string');
    assert.equal(locateJson('{"a": "\\u00e9\\n\\t\\/\\\\\\""}').error, undefined);
  });

  it('finds text after the value', () => {
    assert.equal(syntaxError('{"a": 1}\n{"b": 2}'), "2:1 unexpected '{' after the end of the JSON value");
  });

  it('finds an empty file and a truncated one', () => {
    assert.equal(syntaxError(''), '1:1 unexpected end of file');
    assert.equal(syntaxError('[1,2'), "1:5 expected ',' or ']' after array item but found end of file");
    assert.equal(syntaxError('{\n  "a": {\n    "b": 1\n'), "4:1 expected ',' or '}' after property value but found end of file");
  });

  it('still locates the members before the error', () => {
    const text = '{\n  "a": 1,\n  "b": [2,\n}';
    assert.equal(at(text, ['a']), '2:3');
    assert.equal(at(text, ['b']), '3:3');
  });

  it('finds a trailing comma in an array at the closing bracket', () => {
    assert.equal(syntaxError('[\n  1,\n]'), "3:1 unexpected ']'");
  });

  it('finds a string cut short by the end of the file', () => {
    assert.equal(syntaxError('"abc\\'), '1:6 unterminated string');
    assert.equal(syntaxError('{"a'), '1:4 unterminated string');
  });

  it('finds a file of white space only, or of a byte-order mark only', () => {
    assert.equal(syntaxError('  \n'), '2:1 unexpected end of file');
    assert.equal(locateJson('\uFEFF').error?.offset, 1);
    assert.equal(locateJson('\uFEFF').error?.message, 'unexpected end of file');
  });

  it('counts the byte-order mark in the offset of an error after it', () => {
    assert.deepEqual(locateJson('\uFEFF{"a" 1}').error, { offset: 6, message: "expected ':' after property name but found '1'" });
  });

  it('takes a byte-order mark only at the start, as JSON.parse does after it is removed', () => {
    assert.deepEqual(locateJson('[1,\uFEFF2]').error, { offset: 3, message: "unexpected '\uFEFF'" });
  });

  it('finds garbage after a scalar value', () => {
    assert.equal(syntaxError('true false'), "1:6 unexpected 'f' after the end of the JSON value");
    assert.equal(syntaxError('{"a": 1} ,'), "1:10 unexpected ',' after the end of the JSON value");
  });

  it('locates the key whose colon is missing, and what is under a key cut short', () => {
    const text = '{\n  "a": 1,\n  "b" 2\n}';
    assert.equal(at(text, ['b']), '3:3');
    assert.equal(at(text, ['b', 'x']), '3:3');
    assert.equal(at('{\n  "a": 1,\n  "b": ', ['b']), '3:3');
    assert.equal(at('{\n  "a": {\n    "c": [1, {"d": ', ['a', 'c', 1, 'd']), '3:15');
  });

  it('locates an array item that fails to read at the item', () => {
    assert.equal(at('[1, tru]', [1]), '1:5');
    assert.equal(at('[1, "open', [1]), '1:5');
    assert.equal(at('[1, }', [1]), '1:5');
  });

  it('reports a nesting deeper than the stack as an error, not a throw', () => {
    const text = '['.repeat(200_000);
    assert.ok(locateJson(text).error);
    assert.equal(locateJson(text).offsetOf([0, 0]), 2);
  });

  it('reports comments, which JSON.parse rejects, where they start', () => {
    assert.equal(syntaxError('{\n  "a": 1 // why\n}'), "2:10 expected ',' or '}' after property value but found '/'");
    assert.equal(syntaxError('/* header */ {}'), "1:1 unexpected '/'");
    assert.equal(syntaxError('[1, /* two */ 2]'), "1:5 unexpected '/'");
  });

  it('takes only the white space JSON.parse takes between tokens', () => {
    assert.equal(syntaxError('{\n  "a":\u00a01\n}'), "2:7 unexpected '\u00a0'");
    assert.equal(syntaxError('[1]\u2028'), "1:4 unexpected '\u2028' after the end of the JSON value");
    assert.equal(syntaxError('[1,\v2]'), "1:4 unexpected '\v'");
  });

  it('stops after a literal or number run into other text, as JSON.parse does', () => {
    assert.equal(syntaxError('{"a": truex}'), "1:11 expected ',' or '}' after property value but found 'x'");
    assert.equal(syntaxError('[1.]'), "1:3 expected ',' or ']' after array item but found '.'");
    assert.equal(syntaxError('2e'), "1:2 unexpected 'e' after the end of the JSON value");
    assert.equal(at('[0, nullish]', [1]), '1:5');
  });

  it('reads a byte-order mark followed by a value without a blank', () => {
    assert.equal(locateJson('\uFEFF12').error, undefined);
    assert.equal(locateJson('\uFEFFtrue').offsetOf([]), 1);
  });

  it('agrees with JSON.parse on which texts are valid', () => {
    const samples = [
      '{"a":1}',
      '{"a":1,}',
      '[1,]',
      '"\\x"',
      '-',
      '1.',
      '.5',
      '1e5',
      '"\\ud800"',
      '{"a":[{"b":{}}]}',
      'nul',
      ' true ',
      '{"a" : "b" , "c" : [ ] }',
      '[1,\uFEFF2]',
      '"a\u2028b"',
      '"\x7f"',
      '-0',
      '1E+2',
      '01',
      '[1 2]',
      '{"a":1 "b":2}',
      'truex',
      '"\\u00"',
      '\u00a0[]',
      '{"":""}',
    ];
    for (const text of samples) {
      let parses = true;
      try {
        JSON.parse(text);
      } catch {
        parses = false;
      }
      assert.equal(locateJson(text).error === undefined, parses, text);
    }
  });
});
