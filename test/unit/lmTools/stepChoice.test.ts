import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chooseStep } from '../../../src/host/lmTools/stepChoice';

const forward = { to: 'verification', kind: 'forward' };
const retry = { to: 'executing', kind: 'retry' };
const recover = { to: 'planning', kind: 'recover' };

test('the only way on, or the one `to` names', () => {
  assert.deepEqual(chooseStep([forward]), { kind: 'one', check: forward });
  assert.deepEqual(chooseStep([forward, retry], 'executing'), { kind: 'one', check: retry });
  assert.deepEqual(chooseStep([forward], ''), { kind: 'one', check: forward }, 'an empty `to` is no `to`');
});

test('several ways and none named: the model must say which', () => {
  assert.deepEqual(chooseStep([forward, retry]), { kind: 'several', checks: [forward, retry] });
});

test('`to` naming no way on, or no way on at all', () => {
  assert.deepEqual(chooseStep([forward, retry], 'synced'), { kind: 'none', checks: [forward, retry] });
  assert.deepEqual(chooseStep([]), { kind: 'none', checks: [] });
});

test('recovering a failed spec is not a way on a tool takes', () => {
  assert.deepEqual(chooseStep([recover]), { kind: 'none', checks: [] });
  assert.deepEqual(chooseStep([recover], 'planning'), { kind: 'none', checks: [] });
});
