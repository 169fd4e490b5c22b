import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diagnostic, hasErrors } from '../../../src/core/diagnostics/diagnostic';
import { positionAt } from '../../../src/core/diagnostics/textPosition';

describe('positionAt', () => {
  const text = 'ab\ncde\n\nf';

  it('counts lines and columns from 1', () => {
    assert.deepEqual(positionAt(text, 0), { line: 1, column: 1 });
    assert.deepEqual(positionAt(text, 1), { line: 1, column: 2 });
    assert.deepEqual(positionAt(text, 3), { line: 2, column: 1 });
    assert.deepEqual(positionAt(text, 5), { line: 2, column: 3 });
    assert.deepEqual(positionAt(text, 7), { line: 3, column: 1 });
    assert.deepEqual(positionAt(text, 8), { line: 4, column: 1 });
  });

  it('puts the newline itself at the end of its own line', () => {
    assert.deepEqual(positionAt(text, 2), { line: 1, column: 3 });
  });

  it('clamps offsets outside the text', () => {
    assert.deepEqual(positionAt(text, -5), { line: 1, column: 1 });
    assert.deepEqual(positionAt(text, 999), { line: 4, column: 2 });
  });

  it('treats CRLF as one line break', () => {
    const crlf = 'a\r\nbc\r\nd';
    assert.deepEqual(positionAt(crlf, crlf.indexOf('c')), { line: 2, column: 2 });
    assert.deepEqual(positionAt(crlf, crlf.indexOf('d')), { line: 3, column: 1 });
  });

  it('counts a Chinese character as one column', () => {
    const zh = '{"描述": x}';
    assert.deepEqual(positionAt(zh, zh.indexOf('x')), { line: 1, column: 8 });
  });
});

describe('diagnostic', () => {
  it('defaults to line 1, column 1, error, and leaves out an absent code', () => {
    assert.deepEqual(diagnostic('specs/a/x.json', 'broken'), {
      file: 'specs/a/x.json',
      line: 1,
      column: 1,
      severity: 'error',
      message: 'broken',
    });
  });

  it('keeps position, severity and code', () => {
    assert.deepEqual(diagnostic('f', 'm', { line: 4, column: 7 }, 'warning', 'schema'), {
      file: 'f',
      line: 4,
      column: 7,
      severity: 'warning',
      message: 'm',
      code: 'schema',
    });
  });

  it('hasErrors ignores warnings and infos', () => {
    assert.equal(hasErrors([]), false);
    assert.equal(hasErrors([diagnostic('f', 'w', {}, 'warning'), diagnostic('f', 'i', {}, 'info')]), false);
    assert.equal(hasErrors([diagnostic('f', 'w', {}, 'warning'), diagnostic('f', 'e')]), true);
  });
});
