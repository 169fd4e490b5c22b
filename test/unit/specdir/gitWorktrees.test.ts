import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { gitWorktrees, worktreeOnDisk } from '../../../src/core/specdir/worktree';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'loom-git-worktrees-')));
after(() => rmSync(base, { recursive: true, force: true }));

function git(cwd: string, ...args: string[]): void {
  const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
}

test("the repository's worktrees as git records them: each branch with its folder, none for a detached or removed one", () => {
  const root = join(base, 'app');
  git(base, 'init', '-q', '-b', 'main', root);
  writeFileSync(join(root, 'README.md'), '# app\n');
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'first');
  assert.deepEqual([...gitWorktrees(root)], [], 'no worktree yet');
  assert.deepEqual([...gitWorktrees(join(base, 'not-a-repository'))], [], 'outside git');

  git(root, 'worktree', 'add', '-q', '-b', 'feature/2026-11-29-login', join(base, 'login'));
  git(root, 'worktree', 'add', '-q', '--detach', join(base, 'detached'));
  assert.deepEqual([...gitWorktrees(root)], [['feature/2026-11-29-login', join(base, 'login')]]);
  // The spec whose feature branch it is finds it there (made in a terminal, not recorded in its state).
  assert.equal(worktreeOnDisk({ repoRoot: root, name: '2026-11-29+login', state: undefined }), join(base, 'login'));

  git(root, 'worktree', 'remove', join(base, 'login'));
  assert.deepEqual([...gitWorktrees(root)], []);
  assert.equal(worktreeOnDisk({ repoRoot: root, name: '2026-11-29+login', state: undefined }), undefined);
});
