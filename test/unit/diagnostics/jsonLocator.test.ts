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

  it('agrees with JSON.parse on which texts are valid', () => {
    const samples = ['{"a":1}', '{"a":1,}', '[1,]', '"\\x"', '-', '1.', '.5', '1e5', '"\\ud800"', '{"a":[{"b":{}}]}', 'nul', ' true ', '{"a" : "b" , "c" : [ ] }'];
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
