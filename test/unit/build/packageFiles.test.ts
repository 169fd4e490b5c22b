import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';

// What `npm run package` ships (.vscodeignore) against what the built extension loads (npm test builds first).
const ROOT = resolve(__dirname, '../../..');

function contributedFiles(): string[] {
  const { contributes } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { contributes: Record<string, { path: string }[] | undefined> };
  const files = [...(contributes.chatSkills ?? []), ...(contributes.chatAgents ?? [])].map((c) => c.path.replace(/^\.\//, ''));
  assert.ok(files.length >= 12, files.join(', '));
  return files;
}

test('the package ships every file the extension loads, and no source map of them', () => {
  const main = join(ROOT, 'dist/extensionMain.js');
  assert.ok(existsSync(main), 'dist/extensionMain.js is missing: run "npm run build" first (npm test does)');
  const vsce = join(dirname(createRequire(__filename).resolve('@vscode/vsce/package.json')), 'vsce');
  const r = spawnSync(process.execPath, [vsce, 'ls', '--no-dependencies'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const shipped = new Set(
    r.stdout
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean),
  );
  // The entry, the bundle it loads, the CLI the MCP server definition starts (src/host/mcpServers.ts) with its zod, the loader, the two workers, and each library the bundle loads from dist/vendor (src/core/threads/vendorLoader.ts).
  const vendor = [...readFileSync(main, 'latin1').matchAll(/loadVendor\("([\w-]+)"\)/g)].map((m) => `dist/vendor/${m[1]}.js`);
  assert.ok(vendor.length >= 5, vendor.join(', '));
  for (const file of [
    'dist/extension.js',
    'dist/extensionMain.js',
    'dist/cli.js',
    'dist/cli-zod.js',
    'dist/codeCacheLoader.js',
    'dist/specLookWorker.js',
    'dist/textSearchWorker.js',
    ...vendor,
    'dist/webview/dashboard.js',
    'dist/webview/matrix.js',
    // The skills and agents VS Code's agents read from the package (contributes.chatSkills / chatAgents).
    ...contributedFiles(),
  ]) {
    assert.ok(shipped.has(file), `${file} is not in the package`);
  }
  assert.deepEqual(
    [...shipped].filter((f) => f.endsWith('.map')),
    [],
  );
});
