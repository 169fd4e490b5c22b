import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lazily } from '../../../src/shared/lazily';

test('lazily makes its value on the first call, once, and returns the same value after', () => {
  let made = 0;
  const value = lazily(() => ({ made: ++made }));
  assert.equal(made, 0);
  const first = value();
  assert.equal(made, 1);
  assert.equal(value(), first);
  assert.equal(made, 1);
});

test('lazily keeps an undefined value instead of making it again', () => {
  let made = 0;
  const value = lazily(() => {
    made++;
    return undefined;
  });
  assert.equal(value(), undefined);
  assert.equal(value(), undefined);
  assert.equal(made, 1);
});
