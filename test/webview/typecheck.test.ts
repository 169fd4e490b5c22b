/** The webviews have their own tsconfig (DOM, no Node); the root type-check does not see them, so this one does. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { it } from 'node:test';

it('webview-ui type-checks against its own tsconfig', () => {
  const root = join(__dirname, '../..');
  const r = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'webview-ui'), '--noEmit'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});
