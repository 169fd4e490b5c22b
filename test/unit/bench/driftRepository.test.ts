import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateDriftRepository } from '../../../bench/driftRepository';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { repositoryDrift } from '../../../src/core/drift/repositoryDrift';

test("drift-scan's repository: the commits asked for, every spec synced with its own recorded baseline, the range from the oldest", async () => {
  const root = mkdtempSync(join(tmpdir(), 'loom-drift-bench-'));
  try {
    const { base } = generateDriftRepository(root, 5, 60);
    assert.equal(spawnSync('git', ['rev-list', '--count', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim(), '60');
    const report = await repositoryDrift(new LoomRepository(root));
    assert.equal(report.specs.length, 5);
    assert.ok(report.specs.every((d) => d.baseline?.source === 'synced'));
    assert.equal(new Set(report.specs.map((d) => d.baseline!.commit)).size, 5, 'each spec its own baseline');
    assert.equal(report.specs[0].baseline!.commit, base);
    assert.ok(report.specs.some((d) => d.status === 'drifted'));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
