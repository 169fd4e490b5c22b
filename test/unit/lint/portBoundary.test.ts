import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { test } from 'node:test';

// The surfaces enter the core only through src/core/port (.dependency-cruiser.cjs,
// `surfaces-through-port`, run by `npm run lint`). dependency-cruiser with the project's config, on
// a fixture with a surface that imports core/repository directly, and on the real tree.
const PROJECT = resolve(__dirname, '../../..');
const FIXTURE = join(PROJECT, 'test/fixtures/port-boundary');
const DEPCRUISE = join(PROJECT, 'node_modules', '.bin', process.platform === 'win32' ? 'depcruise.cmd' : 'depcruise');

function cruise(cwd: string, ...paths: string[]): { status: number | null; output: string } {
  const r = spawnSync(DEPCRUISE, ['--config', join(PROJECT, '.dependency-cruiser.cjs'), '--output-type', 'err-long', ...paths], {
    cwd,
    encoding: 'utf8',
    shell: process.platform === 'win32',
  });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

test('a surface importing core/repository past the port fails the rule, naming the import', () => {
  const r = cruise(FIXTURE, 'src/host/openSpec.ts');
  assert.notEqual(r.status, 0, r.output);
  assert.match(r.output, /surfaces-through-port: src\/host\/openSpec\.ts → src\/core\/repository\/loomRepository\.ts/);
});

test('the same import through core/port passes', () => {
  const r = cruise(FIXTURE, 'src/host/openSpecThroughPort.ts');
  assert.equal(r.status, 0, r.output);
  assert.doesNotMatch(r.output, /surfaces-through-port/);
});

test('no surface of the real tree (host, CLI, MCP, the extension, the webviews) imports the core past the port', () => {
  const r = cruise(PROJECT, 'src', 'webview-ui');
  assert.doesNotMatch(r.output, /surfaces-through-port/);
  assert.equal(r.status, 0, r.output);
});
