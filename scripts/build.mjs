// Bundles the CLI (plain Node), the extension host (vscode external) and the webviews with esbuild.
import { build } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { asciiBundle } from './asciiBundle.mjs';
import { buildWebviews } from './build-webviews.mjs';

// One zod per bundle: the core loads zod with require() on first use (src/shared/lazySchema.ts),
// which is zod's CommonJS build; imports of zod (src/mcp, the MCP SDK) would add its ES module
// build beside it. Both go to the files Node's require loads, the ones the unit tests run on.
const oneZod = {
  name: 'one-zod',
  setup(b) {
    b.onResolve({ filter: /^zod(\/.*)?$/ }, (args) => ({ path: createRequire(args.importer || join(args.resolveDir, 'index.js')).resolve(args.path) }));
  },
};
// One copy of the vscode API object: imported as a namespace from an external module, each of the
// 53 modules that import it got its own copy of its few hundred properties (esbuild's __toESM),
// made while the bundle loads. Through one module that re-exports it, the copy is made once.
const oneVscode = {
  name: 'one-vscode',
  setup(b) {
    b.onResolve({ filter: /^vscode$/ }, (args) => (args.namespace === 'one-vscode' ? { path: 'vscode', external: true } : { path: 'vscode', namespace: 'one-vscode' }));
    b.onLoad({ filter: /.*/, namespace: 'one-vscode' }, () => ({ contents: "export * from 'vscode';", loader: 'js' }));
  },
};
// Libraries the extension loads on first use (`lazily(() => require(...))` in src), each in a file
// of its own in dist/vendor: the bundle activation reads is then a third smaller (zod alone was
// 700 KB of it), and each is read when something needs it. (simple-git stays: its import() would
// not run in the bundle, which dist/codeCacheLoader.js compiles as a script.)
const BESIDE = { zod: 'zod', yaml: 'yaml', 'gray-matter': 'gray-matter', 'intl-messageformat': 'intl-messageformat', 'jsonc-parser/lib/esm/main.js': 'jsonc-parser' };
// The bundle gets each through src/core/threads/vendorLoader.ts, which loads it with V8's code
// cache (loadVendor('zod') for `require('zod')`).
const VENDOR_LOADER = resolve('src/core/threads/vendorLoader.ts');
const besideBundle = {
  name: 'beside-bundle',
  setup(b) {
    b.onResolve({ filter: /^[a-z]/ }, (args) => (Object.hasOwn(BESIDE, args.path) ? { path: BESIDE[args.path], namespace: 'vendor' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'vendor' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(VENDOR_LOADER)}).loadVendor(${JSON.stringify(args.path)});`,
      resolveDir: process.cwd(),
      loader: 'js',
    }));
  },
};
// The CLI's zod, in a file of its own beside dist/cli.js (dist/cli-zod.js, one copy of zod for
// every entry point the CLI and the MCP SDK import): `status` on files in loom's shape uses no zod
// (plainShapes), and its 870 KB were a third of the bundle every run of the CLI compiled (measured:
// loading the bundle took 185 ms of CPU with it, 122 without, on the loaded two-core machine of
// docs/performance.md). It is read the first time a schema is built.
const CLI_ZOD = ['zod', 'zod/v4', 'zod/v3', 'zod/v4-mini'];
const zodApart = {
  name: 'zod-apart',
  setup(b) {
    b.onResolve({ filter: /^zod(\/.*)?$/ }, (args) => {
      if (!CLI_ZOD.includes(args.path)) throw new Error(`${args.importer} imports ${args.path}: add it to CLI_ZOD in scripts/build.mjs`);
      return { path: args.path, namespace: 'cli-zod' };
    });
    b.onResolve({ filter: /^\.\/cli-zod\.js$/, namespace: 'cli-zod' }, (args) => ({ path: args.path, external: true }));
    b.onLoad({ filter: /.*/, namespace: 'cli-zod' }, (args) => ({ contents: `module.exports = require('./cli-zod.js')[${JSON.stringify(args.path)}];`, loader: 'js' }));
  },
};
const vendorEntries = Object.entries(BESIDE).map(([module, name]) => ({
  stdin: { contents: `module.exports = require(${JSON.stringify(module)});`, resolveDir: process.cwd(), sourcefile: `vendor/${name}.js` },
  outfile: `dist/vendor/${name}.js`,
  wrapped: true,
}));
// A `wrapped` bundle is written as the function Node wraps a CommonJS module in, and is run by
// dist/codeCacheLoader.js, which compiles its text as it is (BUNDLE_WRAPPER in
// src/core/threads/codeCacheLoader.ts, the same text: test/unit/build/wrappedBundles.test.ts).
const WRAPPER = '(function (exports, require, module, __filename, __dirname) {';
// Whitespace and syntax minified, identifiers kept (error classes use their names): the CLI
// starts faster and the .vsix stays small.
const common = { plugins: [oneZod, oneVscode], bundle: true, platform: 'node', target: 'node20', format: 'cjs', sourcemap: true, minifyWhitespace: true, minifySyntax: true, logLevel: 'warning' };
const entries = [
  { entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', plugins: [zodApart, oneVscode] },
  {
    stdin: { contents: `module.exports = { ${CLI_ZOD.map((m) => `${JSON.stringify(m)}: require(${JSON.stringify(m)})`).join(', ')} };`, resolveDir: process.cwd(), sourcefile: 'cli-zod.js' },
    outfile: 'dist/cli-zod.js',
  },
  // The extension's entry: loads the extension below with V8's code cache (src/extensionEntry.ts).
  { entryPoints: ['src/extensionEntry.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  { entryPoints: ['src/extension.ts'], outfile: 'dist/extensionMain.js', external: ['vscode'], plugins: [besideBundle, oneVscode], wrapped: true },
  ...vendorEntries,
  // The worker thread loom_search_text runs in, loaded from beside dist/extension.js and dist/cli.js.
  { entryPoints: ['src/core/executing/tools/textSearchWorker.ts'], outfile: 'dist/textSearchWorker.js' },
  // The worker process the extension host looks at every spec in (src/core/repository/specLooks.ts).
  { entryPoints: ['src/core/repository/specLookWorker.ts'], outfile: 'dist/specLookWorker.js', wrapped: true },
  // What that worker process starts with: its bundle, with V8's code cache (src/core/threads/codeCacheLoader.ts).
  { entryPoints: ['src/core/threads/codeCacheLoader.ts'], outfile: 'dist/codeCacheLoader.js' },
];
for (const { wrapped, ...entry } of entries) {
  if (entry.entryPoints && !existsSync(entry.entryPoints[0])) continue;
  const { outputFiles } = await build({ ...common, ...entry, write: false });
  const js = outputFiles.find((f) => f.path.endsWith('.js'));
  const map = outputFiles.find((f) => f.path.endsWith('.js.map'));
  // ASCII only, so that Node holds the source as one-byte text (scripts/asciiBundle.mjs).
  const ascii = asciiBundle(js.text, map?.text);
  mkdirSync(dirname(js.path), { recursive: true });
  writeFileSync(js.path, wrapped ? wrapModule(ascii.code) : ascii.code);
  const sourceMap = ascii.map ?? map?.text;
  if (map) writeFileSync(map.path, wrapped ? moveDownALine(sourceMap) : sourceMap);
}
await buildWebviews();
// Code caches of the CLI from earlier builds (it loads without one now).
for (const old of readdirSync('dist')) if (old.startsWith('cli-') && old.endsWith('.v8')) rmSync(join('dist', old));

/** The bundle inside WRAPPER, which takes a line of its own (the source map moves down a line); its source map comment stays last. */
function wrapModule(code) {
  const comment = /\n(\/\/# sourceMappingURL=\S+)\s*$/.exec(code);
  return `${WRAPPER}\n${comment ? code.slice(0, comment.index) : code}\n})\n${comment ? `${comment[1]}\n` : ''}`;
}

function moveDownALine(mapText) {
  const parsed = JSON.parse(mapText);
  return JSON.stringify({ ...parsed, mappings: `;${parsed.mappings}` });
}
