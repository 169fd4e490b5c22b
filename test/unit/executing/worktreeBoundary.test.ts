import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { TOOL_NAMES, WorkspaceTools } from '../../../src/core/executing/tools/workspaceTools';
import { WorktreeBoundary } from '../../../src/core/executing/tools/worktreeBoundary';
import { FakeTestRunner } from './helpers/fakes';

/** The boundary refuses the same paths whatever the platform's path rules; one case per rule. */
const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function worktree(): string {
  const root = mkdtempSync(join(tmpdir(), 'loom-boundary-'));
  dirs.push(root);
  mkdirSync(join(root, 'src'));
  mkdirSync(join(root, '.git'));
  mkdirSync(join(root, '.loom'));
  writeFileSync(join(root, '.git', 'config'), '[core]\n');
  writeFileSync(join(root, 'src', 'a.js'), 'a\n');
  return root;
}

const REFUSED: Array<[string, string, RegExp]> = [
  ['.git in upper case', '.GIT/config', /nothing under \.git/],
  ['.git in mixed case', 'src/../.Git/hooks/pre-commit', /may not contain "\.\."/],
  ['.git in mixed case, directly', '.Git/hooks/pre-commit', /nothing under \.git/],
  ['.git with a trailing dot (Windows drops it)', '.git./config', /ends in a dot or a space/],
  ['.git with a trailing space', '.git /config', /ends in a dot or a space/],
  ['the 8.3 short name of .git', 'GIT~1/config', /nothing under \.git/],
  ['Windows separators with ..', '..\\outside.txt', /may not contain "\.\."/],
  ['Windows separators into .git', 'src\\..\\.git\\config', /may not contain "\.\."/],
  ['Windows separators, .git first', '.git\\config', /nothing under \.git/],
  ['a drive letter', 'C:\\Windows\\win.ini', /outside the worktree/],
  ['a drive letter with forward slashes', 'c:/src/a.js', /outside the worktree/],
  ['a drive-relative path', 'C:src\\a.js', /relative to a drive's current folder/],
  ['a UNC path', '\\\\server\\share\\a.js', /network \(UNC\) path/],
  ['a UNC path with forward slashes', '//server/share/a.js', /network \(UNC\) path/],
  ['a Win32 namespace path', '\\\\?\\C:\\a.js', /device or namespace path/],
  ['a device path', '\\\\.\\PhysicalDrive0', /device or namespace path/],
  ['an alternate data stream', 'src/a.js::$DATA', /contains ":"/],
  ['a device name', 'src/NUL', /device name on Windows/],
  ['a device name with an extension', 'src/com1.txt', /device name on Windows/],
  ['a character Windows forbids', 'src/a?.js', /a character Windows does not allow/],
];

for (const [what, path, reason] of REFUSED) {
  test(`refused on every platform: ${what} (${path})`, () => {
    const root = worktree();
    // A drive letter must never be read relative to the current folder, even inside the worktree.
    const cwd = process.cwd();
    process.chdir(root);
    try {
      const r = new WorktreeBoundary(root).resolve(path);
      assert.equal(r.ok, false, `${path} must be refused`);
      if (!r.ok) assert.match(r.reason, reason);
    } finally {
      process.chdir(cwd);
    }
  });
}

test('plain names are kept: Windows separators inside the worktree, ./, an absolute path inside', () => {
  const root = worktree();
  const b = new WorktreeBoundary(root);
  for (const path of ['src\\a.js', './src/a.js', join(root, 'src', 'a.js'), 'src/new.test.js', 'src/console.js', 'src/.gitignore']) {
    const r = b.resolve(path);
    assert.ok(r.ok, `${path}: ${r.ok ? '' : r.reason}`);
  }
});

test("Loom's lifecycle paths are protected in any case, as a case-insensitive file system reads them", async () => {
  const root = worktree();
  const t = new WorkspaceTools({
    worktree: root,
    task: 'T1',
    role: 'implementer',
    scope: { kind: 'owns', owns: ['.'] },
    protectedPaths: ['specs/2026-12-01+x/', '.loom/'],
    trusted: true,
    testRunner: new FakeTestRunner(),
    testTimeoutMs: 1000,
    log: () => {},
    now: () => '2026-12-01T10:00:00.000Z',
  });
  for (const path of ['.LOOM/workflow.yaml', 'SPECS/2026-12-01+X/tasks.md', '.Loom\\rules\\constitution.md', '.GIT/hooks/pre-commit']) {
    const r = await t.invoke({ callId: 'c', name: TOOL_NAMES.writeFile, input: { path, content: 'x' } }, new AbortController().signal);
    assert.equal(r.outcome, 'refused', `${path}: ${r.content}`);
  }
  assert.equal(existsSync(join(root, '.LOOM')), false);
  assert.equal(existsSync(join(root, '.GIT')), false);
});
