import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join, relative, sep } from 'node:path';
import { entryPath, isNormalAbsolute, repoRelative } from '../../../src/core/fs/paths';

test('repoRelative says what path.relative says, with forward slashes, for paths inside the root and out of it', () => {
  const root = process.platform === 'win32' ? 'C:\\repo' : '/repo';
  const cases =
    process.platform === 'win32'
      ? ['C:\\repo\\specs\\a', 'C:\\repo', 'C:\\other\\x', 'C:\\repo\\specs\\..\\qa\\b']
      : ['/repo/specs/a', '/repo/specs/a/tasks/T1.md', '/repo', '/repository/specs/a', '/other/x', '/repo/specs/../qa/b', '/repo/./specs/a', '/repo//specs/a', '/repo/specs/a/'];
  for (const p of cases) assert.equal(repoRelative(root, p), relative(root, p).split(sep).join('/'), p);
  // A root that is not normal (a trailing slash, a `..`) is resolved as before.
  if (process.platform !== 'win32') {
    assert.equal(repoRelative('/repo/', '/repo/specs/a'), 'specs/a');
    assert.equal(repoRelative('/x/../repo', '/repo/specs/a'), 'specs/a');
  }
});

test('isNormalAbsolute: only a path resolve would return unchanged', { skip: process.platform === 'win32' && 'POSIX paths' }, () => {
  for (const p of ['/repo', '/repo/specs/a.md', '/a/.hidden/b']) assert.equal(isNormalAbsolute(p), true, p);
  for (const p of ['repo', '/repo/', '/repo//a', '/repo/./a', '/repo/../a', '/repo/.', '/repo/..', '/']) assert.equal(isNormalAbsolute(p), false, p);
});

test('entryPath is join for a folder and its entry names', () => {
  for (const [dir, name] of [
    ['/repo/specs/2026-11-20+a', 'tasks/T1.md'],
    ['/repo/specs/2026-11-20+a', 'pipeline.state.json'],
    ['/repo/specs/2026-11-20+任务', 'handoffs/T1.json'],
    ['/', 'specs'],
    ['/repo/', 'specs'],
  ]) {
    assert.equal(entryPath(dir, name), join(dir, name), `${dir} + ${name}`);
  }
});
