import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before, test } from 'node:test';

// `npm run lint` on a copy of the repository with a few files added, limited to those files so
// each run takes seconds, through the project's own configs and scripts/lint.mjs.
const PROJECT = resolve(__dirname, '../../..');
const COPIED = ['src', 'webview-ui', 'scripts/lint.mjs', 'package.json', 'tsconfig.json', '.gitignore', 'eslint.config.mjs', '.dependency-cruiser.cjs', '.prettierrc.json', '.prettierignore'];

let copy: string;

before(() => {
  copy = mkdtempSync(join(tmpdir(), 'loom-lint-'));
  for (const entry of COPIED) cpSync(join(PROJECT, entry), join(copy, entry), { recursive: true });
  symlinkSync(join(PROJECT, 'node_modules'), join(copy, 'node_modules'), 'dir');
});

after(() => rmSync(copy, { recursive: true, force: true }));

function write(files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(copy, path)), { recursive: true });
    writeFileSync(join(copy, path), text);
  }
}

function lint(...paths: string[]): { status: number | null; output: string } {
  const r = spawnSync(process.execPath, ['scripts/lint.mjs', ...paths], { cwd: copy, encoding: 'utf8' });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

test('the added files pass when they respect the layers: core modules without cycles, vscode in the host', () => {
  write({
    'src/core/lintClean/weave.ts': "import { threadCount } from './thread';\n\nexport const weave = (n: number): number => threadCount(n) * 2;\n",
    'src/core/lintClean/thread.ts': 'export const threadCount = (n: number): number => n + 1;\n',
    'src/host/lintClean/uri.ts': "import * as vscode from 'vscode';\n\nexport const fileScheme = (path: string): string => vscode.Uri.file(path).scheme;\n",
  });
  const r = lint('src/core/lintClean', 'src/host/lintClean');
  assert.equal(r.status, 0, r.output);
  assert.match(r.output, /no dependency violations found \(4 modules, 2 dependencies/);
});

test('an import cycle fails the lint, naming its modules, even when one edge imports only a type', () => {
  write({
    'src/core/lintCycle/warp.ts': "import { weftWidth } from './weft';\n\nexport interface Warp {\n  threads: number;\n}\n\nexport const warpWidth = (w: Warp): number => weftWidth(w.threads);\n",
    'src/core/lintCycle/weft.ts': "import type { Warp } from './warp';\n\nexport const weftWidth = (threads: number): number => threads * 2;\nexport const emptyWarp: Warp = { threads: 0 };\n",
  });
  const r = lint('src/core/lintCycle');
  assert.equal(r.status, 1, r.output);
  assert.match(r.output, /no-circular: src\/core\/lintCycle\/(warp|weft)\.ts →\s+src\/core\/lintCycle\/(weft|warp)\.ts →/);
  assert.match(r.output, /lint: depcruise found problems/);
});

test('a vscode import in src/core fails the lint with the layer message', () => {
  write({ 'src/core/lintLayer/editor.ts': "import * as vscode from 'vscode';\n\nexport const activeFile = (): string | undefined => vscode.window.activeTextEditor?.document.fileName;\n" });
  const r = lint('src/core/lintLayer');
  assert.equal(r.status, 1, r.output);
  assert.match(r.output, /src\/core\/lintLayer\/editor\.ts\n\s+1:1\s+error\s+'vscode' import is restricted from being used\. Only src\/host and src\/extension\.ts run inside VS Code/);
  assert.match(r.output, /lint: eslint found problems/);
});
