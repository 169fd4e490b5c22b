import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pickForTier } from '../../../src/host/lm/tierRanking';

test('without configured families: strongest = largest context, fast = smallest, standard = middle; ties keep VS Code order', () => {
  const models = [
    { id: 'b', maxInputTokens: 128_000 },
    { id: 'a', maxInputTokens: 8_000 },
    { id: 'c', maxInputTokens: 200_000 },
    { id: 'd', maxInputTokens: 200_000 },
  ];
  assert.equal(pickForTier(models, 'strongest')?.id, 'c');
  assert.equal(pickForTier(models, 'fast')?.id, 'a');
  assert.equal(pickForTier(models, 'standard')?.id, 'b');
  assert.equal(pickForTier([], 'fast'), undefined, 'an empty list is normal');
  assert.equal(pickForTier([models[0]], 'strongest')?.id, 'b');
});
