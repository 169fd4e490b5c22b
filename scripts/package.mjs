// `npm run package` (after `npm run build`): packs the extension into loom-vscode.vsix with
// @vscode/vsce, prints its size and fails when it reaches 2.5 MB (2 MB before the package carried
// dist/cli.js and dist/cli-zod.js, which the MCP server VS Code starts runs: src/host/mcpServers.ts).
//
// --no-dependencies: esbuild bundles every runtime dependency (xstate, simple-git, ...) into
// dist/extensionMain.js, or those loaded on first use (zod, yaml, gray-matter, ...) into
// dist/vendor, so node_modules stays out of the package; .vscodeignore lists what ships
// (test/unit/build/packageFiles.test.ts holds it to what the extension loads).
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = 'loom-vscode.vsix';
const LIMIT_KB = 2560;

if (!existsSync(join(ROOT, 'dist', 'extension.js'))) {
  console.error('package: dist/extension.js is missing; run `npm run build` first (npm run package does).');
  process.exit(1);
}

const vsce = join(dirname(createRequire(import.meta.url).resolve('@vscode/vsce/package.json')), 'vsce');
const r = spawnSync(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '-o', OUT], {
  cwd: ROOT,
  stdio: ['ignore', 'inherit', 'inherit'], // no stdin: vsce must never wait for an answer
});
if (r.status !== 0) {
  console.error(`package: vsce failed (exit ${r.status ?? r.signal})`);
  process.exit(1);
}

const kb = statSync(join(ROOT, OUT)).size / 1024;
console.log(`${OUT}: ${kb.toFixed(1)} KB`);
if (kb >= LIMIT_KB) {
  console.error(`package: ${OUT} is ${kb.toFixed(1)} KB, over the ${LIMIT_KB} KB limit; check .vscodeignore`);
  process.exit(1);
}
