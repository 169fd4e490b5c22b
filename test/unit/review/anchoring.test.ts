import assert from 'node:assert/strict';
import test from 'node:test';
import { anchorThread, quoteLines } from '../../../src/core/review/anchoring';

const SPEC = ['# Login', '', '## REQ-001 Sign in', 'A user signs in with a password.', 'A wrong password is refused.', '', '## Non-goals'].join('\n');
const thread = { line: 4, end_line: 5, quote: quoteLines(SPEC, 4, 5) };

test('a thread stays on its lines while they are unchanged', () => {
  assert.equal(thread.quote, 'A user signs in with a password.\nA wrong password is refused.');
  assert.deepEqual(anchorThread(thread, SPEC), { line: 4, endLine: 5, outdated: false });
});

test('lines inserted above move the thread with its text', () => {
  const moved = SPEC.replace('# Login\n', '# Login\n\nIntroduction, added later.\nAnd a second line.\n');
  assert.deepEqual(anchorThread(thread, moved), { line: 7, endLine: 8, outdated: false });
  const removed = SPEC.replace('# Login\n\n', '');
  assert.deepEqual(anchorThread(thread, removed), { line: 2, endLine: 3, outdated: false });
});

test('CRLF and trailing spaces do not lose the text', () => {
  assert.deepEqual(anchorThread(thread, SPEC.replace(/\n/g, '  \r\n')), { line: 4, endLine: 5, outdated: false });
});

test('the nearest occurrence wins when the quoted text appears twice', () => {
  const twice = `${SPEC}\n${'x\n'.repeat(20)}A user signs in with a password.\nA wrong password is refused.\n`;
  assert.deepEqual(anchorThread(thread, `filler\n${twice}`), { line: 5, endLine: 6, outdated: false });
});

test('edited text marks the thread outdated at its old lines', () => {
  const edited = SPEC.replace('A wrong password is refused.', 'A wrong password is refused after three attempts.');
  assert.deepEqual(anchorThread(thread, edited), { line: 4, endLine: 5, outdated: true });
});

test('removed text marks the thread outdated, kept inside the shorter file', () => {
  const gone = ['# Login', '', '## Non-goals'].join('\n');
  assert.deepEqual(anchorThread(thread, gone), { line: 3, endLine: 3, outdated: true });
});
