import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { request } from '../../../src/core/port/request';
import { LoomRepository } from '../../../src/core/repository/loomRepository';

// Issue 44, defect 6: Verify on the sample's todo-crud answered "verification FAIL … placeholder
// words left in test-report.md: Todo, todo" and overwrote the shipped PASS report. The showcase
// must pass its own verification (and loom 3's verify-artifacts.mjs, whose PLACEHOLDER_RE ignores
// case): Verify on a copy of the sample says PASS and writes a PASS report.

delete process.env.NODE_TEST_CONTEXT;

const SAMPLE = resolve(__dirname, '..', '..', '..', 'sample');
const CRUD = 'specs/2026-11-20+todo-crud';

test('Verify on a copy of the sample’s todo-crud passes and writes a PASS report', async () => {
  const root = mkdtempSync(join(tmpdir(), 'loom-sample-verify-'));
  try {
    cpSync(SAMPLE, root, { recursive: true });
    const answer = await request(new LoomRepository(root).get(CRUD)!, { type: 'verify', verify: { trusted: true, writer: 'unit test' } });
    assert.equal(answer.kind, 'changed', JSON.stringify(answer));
    if (answer.kind !== 'changed') return;
    const v = answer.verification;
    assert.equal(v.verdict, 'PASS', v.fixItems.map((f) => f.problem).join('\n'));
    assert.match(readFileSync(join(root, CRUD, 'verify-report.md'), 'utf8'), /^verdict: PASS$/m);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
