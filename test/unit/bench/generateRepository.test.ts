import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { generateRepository } from '../../../bench/generateRepository';
import { LoomRepository } from '../../../src/core/repository/loomRepository';

// The benchmarks measure this repository: if its workflow or files stopped reading as loom's,
// `npm run bench` would time a refusal instead of a status (it did once, with a workflow of
// defaults only, which loom 3's loadWorkflow refuses).
test('the generated bench repository reads as a loom repository: every spec at executing, nothing unreadable', () => {
  const root = mkdtempSync(join(tmpdir(), 'loom-bench-repo-'));
  try {
    generateRepository(root, 3, 4);
    const specs = new LoomRepository(root).load().all();
    assert.equal(specs.length, 3);
    for (const s of specs) {
      assert.equal(s.stage, 'executing', s.snapshot.specDir);
      assert.equal(s.definition.source, 'workflow');
      assert.deepEqual(
        (s.definition.problems ?? []).map((p) => p.message),
        [],
      );
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
