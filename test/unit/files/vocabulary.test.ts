import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  APPLICABILITY,
  BEHAVIOR_CATEGORIES,
  BEHAVIOR_ID_PATTERN,
  categoriesImpliedBy,
  COMPLEXITIES,
  FAILED_STAGE,
  HISTORY_STATUSES,
  REQUIREMENT_ID_PATTERN,
  REQUIREMENT_STATUSES,
} from '../../../src/core/files/vocabulary';

describe('loom vocabulary', () => {
  it("has the 15 behavior categories in loom's order", () => {
    assert.deepEqual(
      [...BEHAVIOR_CATEGORIES],
      [
        'happy-path',
        'boundary',
        'invalid-input',
        'authorization',
        'state-transition',
        'idempotency',
        'concurrency',
        'atomicity',
        'external-failure',
        'compatibility',
        'security',
        'performance',
        'observability',
        'recovery',
        'forbidden-behavior',
      ],
    );
  });

  it("has loom's statuses, applicability values and complexities", () => {
    assert.deepEqual([...REQUIREMENT_STATUSES], ['failing', 'in_progress', 'candidate_implemented', 'passing', 'blocked', 'superseded']);
    assert.deepEqual([...APPLICABILITY], ['applicable', 'not-applicable', 'requires-clarification']);
    assert.deepEqual([...HISTORY_STATUSES], ['passed', 'failed', 'retry']);
    assert.deepEqual([...COMPLEXITIES], ['low', 'medium', 'high']);
    assert.equal(FAILED_STAGE, 'failed');
  });

  it('matches requirement and behavior ids', () => {
    for (const ok of ['REQ-001', 'REQ-1234']) assert.equal(REQUIREMENT_ID_PATTERN.test(ok), true, ok);
    for (const bad of ['REQ-01', 'req-001', 'REQ-001-B01', 'REQ-001 ', 'REQ_001']) assert.equal(REQUIREMENT_ID_PATTERN.test(bad), false, bad);
    for (const ok of ['REQ-001-B01', 'REQ-1000-B100']) assert.equal(BEHAVIOR_ID_PATTERN.test(ok), true, ok);
    for (const bad of ['REQ-001-B1', 'REQ-001', 'REQ-001-b01', 'REQ-01-B01']) assert.equal(BEHAVIOR_ID_PATTERN.test(bad), false, bad);
  });
});

describe('categoriesImpliedBy', () => {
  it('maps every requirement type loom knows', () => {
    const table: [string, string][] = [
      ['functional', 'happy-path'],
      ['input', 'invalid-input'],
      ['auth', 'authorization'],
      ['authorization', 'authorization'],
      ['write', 'atomicity'],
      ['mutation', 'atomicity'],
      ['state', 'state-transition'],
      ['idempotent', 'idempotency'],
      ['concurrent', 'concurrency'],
      ['external', 'external-failure'],
      ['security', 'security'],
      ['performance', 'performance'],
      ['observable', 'observability'],
      ['recovery', 'recovery'],
    ];
    for (const [type, category] of table) assert.deepEqual(categoriesImpliedBy([type]), [category], type);
  });

  it('ignores case and whitespace, drops duplicates, keeps first-seen order', () => {
    assert.deepEqual(categoriesImpliedBy([' Security ', 'auth', 'AUTHORIZATION', 'functional']), ['security', 'authorization', 'happy-path']);
  });

  it('ignores unknown types, including names of Object.prototype members', () => {
    assert.deepEqual(categoriesImpliedBy(['ui', 'constructor', '__proto__', 'toString', '']), []);
  });
});
