import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ActiveRunsFile } from '../../../src/host/pipelineRun/activeRuns';

// The pipeline runs under way, kept where the extension host runs (its global storage) so that the
// next window resumes them after a reload, in code-server too, whose workspace state stays in the browser.

test('remembered runs are read back by the next window; forgotten ones are gone; each spec once', () => {
  const dir = mkdtempSync(join(tmpdir(), 'loom-active-runs-'));
  try {
    const store = new ActiveRunsFile(join(dir, 'storage'));
    assert.deepEqual(store.read(), [], 'no file yet: nothing to resume');
    store.remember({ dir: '/ws/a/specs/2026-12-04+csv', mode: 'autopilot' });
    store.remember({ dir: '/ws/b/specs/2026-12-04+tags', mode: 'supervised' });
    store.remember({ dir: '/ws/a/specs/2026-12-04+csv', mode: 'supervised' });
    const next = new ActiveRunsFile(join(dir, 'storage'));
    assert.deepEqual(next.read(), [
      { dir: '/ws/b/specs/2026-12-04+tags', mode: 'supervised' },
      { dir: '/ws/a/specs/2026-12-04+csv', mode: 'supervised' },
    ]);
    next.forget('/ws/a/specs/2026-12-04+csv');
    assert.deepEqual(store.read(), [{ dir: '/ws/b/specs/2026-12-04+tags', mode: 'supervised' }]);
    assert.deepEqual(readdirSync(join(dir, 'storage')), ['pipeline-runs.json'], 'no temporary file stays');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a file that does not parse, or holds something else, resumes nothing and is replaced by the next run', () => {
  const dir = mkdtempSync(join(tmpdir(), 'loom-active-runs-'));
  try {
    const store = new ActiveRunsFile(dir);
    writeFileSync(join(dir, 'pipeline-runs.json'), '{ not json');
    assert.deepEqual(store.read(), []);
    writeFileSync(join(dir, 'pipeline-runs.json'), JSON.stringify([{ dir: '/x', mode: 'fast' }]));
    assert.deepEqual(store.read(), []);
    store.remember({ dir: '/ws/specs/x', mode: 'autopilot' });
    assert.deepEqual(store.read(), [{ dir: '/ws/specs/x', mode: 'autopilot' }]);
    store.forget('/ws/specs/unknown');
    assert.ok(existsSync(join(dir, 'pipeline-runs.json')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
