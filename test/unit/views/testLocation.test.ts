import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findTestLine } from '../../../src/core/views/testLocation';

const js = [
  "import { login } from './login';",
  '// rejects a wrong password',
  "describe('login', () => {",
  "  it('rejects a wrong password', () => {});",
  '  test.each([1])("locks after 5 tries (%i)", () => {});',
  '});',
].join('\n');

test('finds a JS test declaration before a mere mention', () => {
  assert.equal(findTestLine(js, 'rejects a wrong password'), 4);
  assert.equal(findTestLine(js, 'login'), 3);
});

test('finds Python and Go declarations and the last :: segment', () => {
  const py = 'import pytest\n\nclass TestLogin:\n    def test_wrong_password(self):\n        pass\n';
  assert.equal(findTestLine(py, 'test_wrong_password'), 4);
  assert.equal(findTestLine(py, 'TestLogin::test_wrong_password'), 4);
  assert.equal(findTestLine('package x\n\nfunc TestLogin(t *testing.T) {}\n', 'TestLogin'), 3);
});

test('falls back to the first occurrence, then to nothing; names are not regular expressions', () => {
  assert.equal(findTestLine('a\nsee (.*) here\n', '(.*)'), 2);
  assert.equal(findTestLine('a\nb\n', 'missing'), undefined);
  assert.equal(findTestLine(js, 'locks after 5 tries (%i)'), 5);
});
