/**
 * `loom-vscode status` on files in the shape loom writes checks them without zod (plainShapes):
 * zod is neither loaded nor a schema built, in a process of its own (zod's load and the building of
 * its schemas were tens of ms of every status run: docs/performance.md).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { generateRepository } from '../../../bench/generateRepository';

const PROJECT = resolve(__dirname, '../../..');

test('status --json on a repository in loom’s shape loads no zod, cold and warm', () => {
  const work = mkdtempSync(join(tmpdir(), 'loom-status-zod-'));
  try {
    generateRepository(join(work, 'repo'), 3, 4);
    const script = `
      const { main } = require(${JSON.stringify(join(PROJECT, 'src/cli/main.ts'))});
      main(['status', '--json', '--cwd', ${JSON.stringify(join(work, 'repo'))}], { out: () => {}, err: (t) => process.stderr.write(t) }).then((code) => {
        const zod = Object.keys(require.cache).filter((k) => /[\\\\/]node_modules[\\\\/]zod[\\\\/]/.test(k));
        process.stdout.write(JSON.stringify({ code, zod: zod.length }));
      });`;
    for (const run of ['cold', 'warm']) {
      const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], {
        cwd: PROJECT,
        encoding: 'utf8',
        env: { ...process.env, LOOM_VSCODE_CACHE: '', LOOM_VSCODE_CACHE_DIR: join(work, 'cache') },
      });
      assert.equal(r.status, 0, r.stderr);
      assert.deepEqual(JSON.parse(r.stdout), { code: 0, zod: 0 }, run);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
