import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mostRelevantSpec } from '../../../src/core/specdir/relevantSpec';
import type { SpecGroup } from '../../../src/core/specdir/specOverview';

const spec = (dir: string, group: SpecGroup, updatedAt?: string) => ({ dir, overview: { group, updatedAt } });

test('the only spec in progress is the relevant one, whatever else is there', () => {
  const specs = [spec('a', 'done', '2026-12-01T00:00:00Z'), spec('b', 'in-progress', '2026-11-01T00:00:00Z'), spec('c', 'failed', '2026-12-02T00:00:00Z'), spec('d', 'attention')];
  assert.equal(mostRelevantSpec(specs)?.dir, 'b');
});

test('of several in progress, the one whose state changed last; a spec without a time comes last', () => {
  const specs = [spec('old', 'in-progress', '2026-11-20T10:00:00Z'), spec('new', 'in-progress', '2026-11-28T09:00:00Z'), spec('inferred', 'in-progress')];
  assert.equal(mostRelevantSpec(specs)?.dir, 'new');
  assert.equal(mostRelevantSpec([spec('x', 'in-progress'), spec('y', 'in-progress')])?.dir, 'x', 'ties keep the list order');
});

test('none in progress: nothing to show', () => {
  assert.equal(mostRelevantSpec([spec('a', 'done'), spec('b', 'failed'), spec('c', 'attention')]), undefined);
  assert.equal(mostRelevantSpec([]), undefined);
});
