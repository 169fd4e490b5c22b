import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { BUNDLE_WRAPPER, loadWithCodeCache } from '../../../src/core/threads/codeCacheLoader';
import { loadVendor } from '../../../src/core/threads/vendorLoader';

const tmp = mkdtempSync(join(tmpdir(), 'loom-vendor-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

test('a library in dist/vendor is loaded wrapped, and its code cache written a while after, for the next start to take', async () => {
  const dist = join(tmp, 'dist');
  const folder = join(tmp, 'cache');
  mkdirSync(join(dist, 'vendor'), { recursive: true });
  // As scripts/build.mjs writes a vendor library: the module's function, written out.
  writeFileSync(join(dist, 'vendor', 'lib.js'), `${BUNDLE_WRAPPER}\nexports.parse = (s) => s.split(',').map(Number);\n})\n`);

  const lib = loadVendor('lib', { folder, dist, saveAfterMs: 20 }) as { parse(s: string): number[] };
  assert.deepEqual(lib.parse('1,2'), [1, 2]);
  assert.equal(existsSync(folder), false, 'not written at once');
  await sleep(200);
  assert.equal(readdirSync(folder).filter((f) => f.startsWith('lib-') && f.endsWith('.v8')).length, 1, 'written after the delay');
  assert.equal(loadWithCodeCache(join(dist, 'vendor', 'lib.js'), folder).cached, true, 'V8 takes it');
});

test('without a cache folder (LOOM_VSCODE_CACHE=0) the library is compiled and nothing is written', () => {
  const dist = join(tmp, 'plain');
  mkdirSync(join(dist, 'vendor'), { recursive: true });
  writeFileSync(join(dist, 'vendor', 'lib.js'), `${BUNDLE_WRAPPER}\nmodule.exports = 42;\n})\n`);
  assert.equal(loadVendor('lib', { folder: undefined, dist }), 42);
  assert.deepEqual(readdirSync(dist), ['vendor']);
});
