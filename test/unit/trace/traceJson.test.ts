import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TraceabilityMatrix } from '../../../src/core/trace/traceabilityMatrix';
import { traceJson } from '../../../src/core/trace/traceJson';

/** A matrix of one behavior: a test found, a test missing, evidence outside the spec directory. */
const matrix = {
  rows: [
    {
      requirement: 'REQ-001',
      behavior: 'B-001',
      category: 'happy-path',
      status: 'covered',
      tasks: ['T1'],
      tests: [
        { ref: 'test/login.test.js', exists: true, path: 'test/login.test.js' },
        { ref: 'test/gone.test.js', exists: false, reason: 'missing' },
      ],
      evidence: [{ ref: '../../secrets.log', exists: false, reason: 'outside-evidence' }],
      closed: false,
    },
  ],
  requirements: [{ id: 'REQ-001', required_categories: ['happy-path'], covered_categories: ['happy-path'], missing_categories: [] }],
  orphans: { tasks: [], behaviors: [] },
  summary: { behaviors: 1, closed: 0 },
  diagnostics: [],
} as unknown as TraceabilityMatrix;

describe('traceJson: one JSON shape for trace --json, the MCP tools and #loomTrace', () => {
  it('says why a reference is not found, and nothing more for one that is', () => {
    const row = traceJson(matrix).rows[0];
    assert.deepEqual(row.tests, [
      { ref: 'test/login.test.js', exists: true },
      { ref: 'test/gone.test.js', exists: false, reason: 'missing' },
    ]);
    assert.deepEqual(row.evidence, [{ ref: '../../secrets.log', exists: false, reason: 'outside-evidence' }]);
  });

  it('keeps the summary, requirements and orphans, and no diagnostics', () => {
    const json = traceJson(matrix);
    assert.deepEqual(json.summary, { behaviors: 1, closed: 0 });
    assert.deepEqual(json.requirements[0].missing_categories, []);
    assert.deepEqual(Object.keys(json).sort(), ['orphans', 'requirements', 'rows', 'summary']);
  });
});
