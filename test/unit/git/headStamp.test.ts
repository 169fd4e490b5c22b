import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { headStamp } from '../../../src/core/git/headStamp';

const root = mkdtempSync(join(tmpdir(), 'loom-head-stamp-'));
after(() => rmSync(root, { recursive: true, force: true }));

function git(...args: string[]): void {
  const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: root, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
}

test("HEAD's stamp changes with a commit and a checkout, and not without them", () => {
  assert.equal(headStamp(root), '- -', 'outside git');
  git('init', '-q', '-b', 'main');
  writeFileSync(join(root, 'a.txt'), 'a\n');
  git('add', '-A');
  git('commit', '-qm', 'first');
  const first = headStamp(root);
  assert.equal(headStamp(root), first, 'nothing moved');
  writeFileSync(join(root, 'a.txt'), 'b\n');
  git('commit', '-qam', 'second');
  const second = headStamp(root);
  assert.notEqual(second, first, 'a commit is in the reflog');
  git('checkout', '-q', '-b', 'other');
  assert.notEqual(headStamp(root), second, 'a checkout rewrites HEAD');
});
