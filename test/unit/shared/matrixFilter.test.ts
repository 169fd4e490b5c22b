import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countRows, EMPTY_FILTER, filterRows, isFiltered, sanitizeFilter } from '../../../src/shared/matrixFilter';
import type { MatrixRow } from '../../../src/shared/matrixModel';

const row = (behavior: string, over: Partial<MatrixRow> = {}): MatrixRow => ({
  requirement: 'REQ-001',
  behavior,
  category: 'happy-path',
  status: 'passing',
  description: 'Logs the user in',
  tasks: ['T1'],
  tests: [{ ref: 'tests/login.test.ts', path: 0 }],
  evidence: [{ ref: 'evidence/a.log', path: 1 }],
  closed: true,
  gaps: [],
  ...over,
});

const rows = [
  row('REQ-001-B01'),
  row('REQ-001-B02', { category: 'security', status: 'failing', closed: false, gaps: ['no-evidence'], evidence: [], description: 'Rejects a forged session' }),
  row('REQ-001-B03', { tasks: ['T2'], status: 'blocked', closed: false, gaps: ['no-test'], tests: [] }),
];

describe('matrix filters', () => {
  it('shows everything without a filter', () => {
    assert.equal(isFiltered(EMPTY_FILTER), false);
    assert.deepEqual(filterRows(rows, EMPTY_FILTER), rows);
    assert.deepEqual(countRows(rows, 3), { shown: 3, total: 3, closed: 1, open: 2 });
  });

  it('filters by gaps, category, status and task', () => {
    const ids = (f: Partial<typeof EMPTY_FILTER>) => filterRows(rows, { ...EMPTY_FILTER, ...f }).map((r) => r.behavior);
    assert.deepEqual(ids({ gapsOnly: true }), ['REQ-001-B02', 'REQ-001-B03']);
    assert.deepEqual(ids({ category: 'security' }), ['REQ-001-B02']);
    assert.deepEqual(ids({ status: 'blocked' }), ['REQ-001-B03']);
    assert.deepEqual(ids({ task: 'T1' }), ['REQ-001-B01', 'REQ-001-B02']);
    assert.deepEqual(ids({ task: 'T1', gapsOnly: true }), ['REQ-001-B02']);
  });

  it('searches every word, case-insensitively, across ids, description, links and gaps', () => {
    const ids = (text: string) => filterRows(rows, { ...EMPTY_FILTER, text }).map((r) => r.behavior);
    assert.deepEqual(ids('FORGED'), ['REQ-001-B02']);
    assert.deepEqual(ids('b03 t2'), ['REQ-001-B03']);
    assert.deepEqual(ids('no-evidence'), ['REQ-001-B02']);
    assert.deepEqual(ids('login.test'), ['REQ-001-B01', 'REQ-001-B02']);
    assert.deepEqual(ids('   '), ['REQ-001-B01', 'REQ-001-B02', 'REQ-001-B03']);
  });

  it('counts the shown rows against the total', () => {
    assert.deepEqual(countRows(filterRows(rows, { ...EMPTY_FILTER, gapsOnly: true }), 3), { shown: 2, total: 3, closed: 0, open: 2 });
  });

  it('reads a saved filter defensively', () => {
    assert.deepEqual(sanitizeFilter(undefined), EMPTY_FILTER);
    assert.deepEqual(sanitizeFilter({ gapsOnly: 'yes', category: 3, text: 'x', extra: 1 }), { ...EMPTY_FILTER, text: 'x' });
  });
});
