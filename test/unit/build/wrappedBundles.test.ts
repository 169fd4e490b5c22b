import assert from 'node:assert/strict';
import { isAscii } from 'node:buffer';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { BUNDLE_WRAPPER } from '../../../src/core/threads/codeCacheLoader';

// What scripts/build.mjs writes (npm test builds first): the bundles dist/codeCacheLoader.js runs.
const DIST = resolve(__dirname, '../../../dist');
const read = (name: string) => {
  assert.ok(existsSync(join(DIST, name)), `dist/${name} is missing: run "npm run build" first (npm test does)`);
  return readFileSync(join(DIST, name));
};

test('the bundles the loader runs are wrapped in the text it looks for, in ASCII, with their source map comment last', () => {
  for (const name of ['extensionMain.js', 'specLookWorker.js', ...['zod', 'yaml', 'gray-matter', 'intl-messageformat', 'jsonc-parser'].map((v) => `vendor/${v}.js`)]) {
    const bytes = read(name);
    assert.ok(isAscii(bytes), `${name} is ASCII`);
    const text = bytes.toString('latin1');
    assert.ok(text.startsWith(`${BUNDLE_WRAPPER}\n`), `${name} begins with BUNDLE_WRAPPER`);
    assert.match(text, new RegExp(`\\n\\}\\)\\n//# sourceMappingURL=${name.replace(/^vendor\//, '').replace('.', '\\.')}\\.map\\n$`));
    // The map moved down the wrapper's line: the bundle's first line has no mappings.
    assert.ok((JSON.parse(read(`${name}.map`).toString('utf8')) as { mappings: string }).mappings.startsWith(';'));
  }
});

test("the extension's bundle leaves the libraries it loads on first use to dist/vendor, which it loads from beside itself with the code cache", () => {
  const main = read('extensionMain.js').toString('latin1');
  const libraries = { zod: 'zod', yaml: 'yaml', 'gray-matter': 'gray-matter', 'intl-messageformat': 'intl-messageformat', 'jsonc-parser': 'jsonc-parser' };
  for (const [name, folder] of Object.entries(libraries)) {
    assert.ok(main.includes(`loadVendor("${name}")`), name);
    assert.ok(!main.includes(`node_modules/${folder}/`), `no module of ${name} in the bundle`);
  }
  // Each one works from there, loaded as the extension's bundle loads it (src/core/threads/vendorLoader.ts).
  const script = `
    const { loadWithCodeCache } = require(${JSON.stringify(join(DIST, 'codeCacheLoader.js'))});
    const v = (n) => loadWithCodeCache(${JSON.stringify(join(DIST, 'vendor'))} + '/' + n + '.js', undefined).exports;
    const { z } = v('zod');
    const out = [
      z.object({ stage: z.string() }).safeParse({ stage: 'planning' }).success,
      v('yaml').parse('pipeline: standard').pipeline,
      v('gray-matter')('---\\nid: T1\\n---\\nbody').data.id,
      new (v('intl-messageformat').IntlMessageFormat)('{n, plural, one {# task} other {# tasks}}', 'en').format({ n: 2 }),
      v('jsonc-parser').parse('{ "a": 1, // note\\n }').a,
    ];
    process.stdout.write(JSON.stringify(out));`;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  assert.equal(r.stdout, JSON.stringify([true, 'standard', 'T1', '2 tasks', 1]), r.stderr);
});

test("the look's worker bundle starts through the loader and waits for its request", () => {
  // Started as the extension starts it (src/core/threads/bundledProcess.ts), without an IPC
  // channel it has nothing to do: it loads and exits without an error.
  const r = spawnSync(process.execPath, [join(DIST, 'codeCacheLoader.js'), join(DIST, 'specLookWorker.js')], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
});
