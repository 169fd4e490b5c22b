import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';

const LOADER = resolve(__dirname, '../../../src/core/threads/codeCacheLoader.ts');
const work = mkdtempSync(join(tmpdir(), 'loom-code-cache-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** A bundle as the loader runs one: CommonJS, using require, module, __filename and __dirname. */
const bundle = join(work, 'worker.js');
writeFileSync(
  bundle,
  `const { basename } = require('node:path');\nmodule.exports.name = basename(__filename);\nfunction square(n) { return n * n; }\nprocess.stdout.write(JSON.stringify({ file: basename(__filename), dir: __dirname, squares: [1, 2, 3].map(square), exported: module.exports.name }));\n`,
);
const cacheDir = join(work, 'cache');

function runLoader(): unknown {
  const r = spawnSync(process.execPath, ['--require', 'tsx/cjs', LOADER, bundle, cacheDir], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}
const cacheFiles = () => readdirSync(cacheDir).filter((n) => n.endsWith('.v8'));
const expected = { file: 'worker.js', dir: work, squares: [1, 4, 9], exported: 'worker.js' };

test('the loader runs the bundle as Node would, and keeps its code cache for the next start', () => {
  assert.deepEqual(runLoader(), expected);
  assert.equal(cacheFiles().length, 1, 'written when the process exits');
  const [file] = cacheFiles();
  const written = statSync(join(cacheDir, file)).mtimeMs;
  assert.deepEqual(runLoader(), expected);
  assert.equal(statSync(join(cacheDir, file)).mtimeMs, written, 'a cache V8 accepted is not written again');
});

test('a damaged cache is not trusted: the bundle runs all the same and the cache is written again', () => {
  runLoader();
  const [file] = cacheFiles();
  writeFileSync(join(cacheDir, file), 'not a code cache');
  assert.deepEqual(runLoader(), expected);
  assert.notEqual(readFileSync(join(cacheDir, file), 'utf8'), 'not a code cache');
});

test('a new build of the bundle gets a cache of its own, and the old one is removed', () => {
  runLoader();
  const [before] = cacheFiles();
  writeFileSync(bundle, `${readFileSync(bundle, 'utf8')}// a new build\n`);
  assert.deepEqual(runLoader(), expected);
  const now = cacheFiles();
  assert.equal(now.length, 1);
  assert.notEqual(now[0], before);
});

test("another runtime's cache of the same bundle is left alone: VS Code's Electron and Node share the folder", () => {
  runLoader();
  const other = `worker-v0.0.0-v8-1.0.0-electron.0-${statSync(bundle).size}-1.v8`;
  writeFileSync(join(cacheDir, other), 'a cache of another V8');
  writeFileSync(bundle, `${readFileSync(bundle, 'utf8')}// another build\n`);
  assert.deepEqual(runLoader(), expected);
  assert.ok(cacheFiles().includes(other), 'still there');
  assert.equal(cacheFiles().filter((n) => n.startsWith(`worker-${process.version}-v8-${process.versions.v8}-`)).length, 1, "this runtime's own, for the new build only");
});

/** The bundle above as scripts/build.mjs writes a `wrapped` one: the module's function, written out. */
const wrapped = join(work, 'wrapped', 'worker.js');
const wrappedDir = join(work, 'wrapped');

function runWrapped(args: string[], file = wrapped): unknown {
  const r = spawnSync(process.execPath, ['--require', 'tsx/cjs', LOADER, file, ...args], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

test('a wrapped bundle is run as the module it wraps, with its code cache kept like any other', async () => {
  const { BUNDLE_WRAPPER } = await import(LOADER);
  rmSync(wrappedDir, { recursive: true, force: true });
  mkdirSync(wrappedDir);
  writeFileSync(wrapped, `${BUNDLE_WRAPPER}\n${readFileSync(bundle, 'utf8')}\n})\n`);
  const dir = join(work, 'wrapped-cache');
  const want = { ...expected, dir: wrappedDir };
  assert.deepEqual(runWrapped([dir]), want);
  const [file] = readdirSync(dir);
  const written = statSync(join(dir, file)).mtimeMs;
  assert.deepEqual(runWrapped([dir]), want);
  assert.equal(statSync(join(dir, file)).mtimeMs, written, 'V8 took the cache it wrote');
});

test('without a folder for the cache, the bundle runs and nothing is written', () => {
  const before = readdirSync(work).sort();
  assert.deepEqual(runWrapped([]), { ...expected, dir: wrappedDir });
  assert.deepEqual(readdirSync(work).sort(), before);
});

test('a bundle that is not ASCII is read as UTF-8, its cache taken the next time all the same', () => {
  const file = join(work, 'unicode', 'worker.js');
  mkdirSync(join(work, 'unicode'), { recursive: true });
  writeFileSync(file, `process.stdout.write(JSON.stringify({ verdict: /结论[：:]\\s*(\\S+)/.exec('结论：通过')[1], emoji: '😀'.length }));\n`);
  const dir = join(work, 'unicode-cache');
  assert.deepEqual(runWrapped([dir], file), { verdict: '通过', emoji: 2 });
  const [cache] = readdirSync(dir);
  const written = statSync(join(dir, cache)).mtimeMs;
  assert.deepEqual(runWrapped([dir], file), { verdict: '通过', emoji: 2 });
  assert.equal(statSync(join(dir, cache)).mtimeMs, written);
});
