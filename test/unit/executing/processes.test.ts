import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { GitDiffProvider } from '../../../src/core/executing/evidence/diffProvider';
import { detectTestCommand, NodeTestRunner } from '../../../src/core/executing/evidence/testRunner';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'loom-proc-'));
  dirs.push(d);
  return d;
};
const git = (cwd: string, ...args: string[]) => spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8' });

test('git diff since the task started: tracked, untracked, deleted; the index and HEAD are untouched', async () => {
  const wt = temp();
  git(wt, 'init', '-q');
  writeFileSync(join(wt, '.gitignore'), 'ignored/\n');
  writeFileSync(join(wt, 'a.js'), 'one\n');
  writeFileSync(join(wt, 'old.test.js'), 'test\n');
  git(wt, 'add', '-A');
  git(wt, 'commit', '-q', '-m', 'init');
  writeFileSync(join(wt, 'a.js'), 'one\ntwo\n'); // changed before the task: part of the base
  const diff = new GitDiffProvider(wt);
  const signal = new AbortController().signal;
  const base = await diff.snapshot(signal);
  assert.match(base, /^[0-9a-f]{40}$/);

  writeFileSync(join(wt, 'a.js'), 'one\ntwo\nthree\n');
  writeFileSync(join(wt, 'new.js'), 'new\n');
  unlinkSync(join(wt, 'old.test.js'));
  spawnSync('mkdir', ['-p', join(wt, 'ignored')]);
  writeFileSync(join(wt, 'ignored', 'x.js'), 'x');
  const d = await diff.diffSince(base, signal);
  assert.deepEqual(d.files, [
    { path: 'a.js', change: 'modified' },
    { path: 'new.js', change: 'added' },
    { path: 'old.test.js', change: 'deleted' },
  ]);
  assert.match(d.text, /\+three/);
  assert.doesNotMatch(d.text, /^\+two/m, 'changes from before the task are not in its diff');
  assert.equal(git(wt, 'status', '--porcelain').stdout.includes('A '), false, 'nothing was staged');
  assert.equal(git(wt, 'rev-list', '--count', 'HEAD').stdout.trim(), '1', 'nothing was committed');
});

test('git diff works in a repository without a commit, and is cancellable', async () => {
  const wt = temp();
  git(wt, 'init', '-q');
  writeFileSync(join(wt, 'a.js'), 'a\n');
  const diff = new GitDiffProvider(wt);
  const base = await diff.snapshot(new AbortController().signal);
  writeFileSync(join(wt, 'b.js'), 'b\n');
  assert.deepEqual((await diff.diffSince(base, new AbortController().signal)).files, [{ path: 'b.js', change: 'added' }]);
  const aborted = AbortSignal.abort(new Error('stop'));
  await assert.rejects(diff.snapshot(aborted));
  await assert.rejects(diff.diffSince('not a tree', new AbortController().signal), /not a tree id/);
});

/**
 * A git that says a file it listed vanished on its first `failAdds` adds (as when another task
 * renames a temporary file into place meanwhile), and is git otherwise; `adds` counts them.
 */
function gitLosingFiles(failAdds: number): { path: string; adds: () => number } {
  const dir = temp();
  const count = join(dir, 'adds');
  writeFileSync(count, '');
  const path = join(dir, 'git');
  writeFileSync(
    path,
    `#!/bin/sh
case " $* " in *" add "*)
  echo x >> '${count}'
  if [ "$(wc -l < '${count}')" -le ${failAdds} ]; then
    echo "fatal: unable to stat 'specs/s/task-states/.T1.state.json.1.2.x.tmp': No such file or directory" >&2
    exit 128
  fi;;
esac
exec git "$@"
`,
    { mode: 0o755 },
  );
  return { path, adds: () => readFileSync(count, 'utf8').split('\n').filter(Boolean).length };
}

test(
  'a snapshot runs git add again when a file it listed was gone before it read it, and gives up after three tries',
  { skip: process.platform === 'win32' && 'a shell script stands in for git' },
  async () => {
    const wt = temp();
    git(wt, 'init', '-q');
    writeFileSync(join(wt, 'a.js'), 'a\n');
    const flaky = gitLosingFiles(2);
    const base = await new GitDiffProvider(wt, { git: flaky.path }).snapshot(new AbortController().signal);
    assert.match(base, /^[0-9a-f]{40}$/);
    assert.equal(flaky.adds(), 3, 'two adds lost a file, the third went through');

    const broken = gitLosingFiles(99);
    await assert.rejects(new GitDiffProvider(wt, { git: broken.path }).snapshot(new AbortController().signal), /git add failed in .*unable to stat/);
    assert.equal(broken.adds(), 3);
  },
);

test('the test runner reports exit codes and output, and kills the whole process tree on timeout and on cancel', async () => {
  const wt = temp();
  const runner = new NodeTestRunner();
  const ok = await runner.run('echo hello && exit 3', wt, { signal: new AbortController().signal, timeoutMs: 10_000 });
  assert.equal(ok.exitCode, 3);
  assert.equal(ok.output, 'hello\n');
  assert.equal(ok.timedOut, false);

  const started = Date.now();
  const slow = await runner.run('sleep 30 & sleep 30; wait', wt, { signal: new AbortController().signal, timeoutMs: 200 });
  assert.equal(slow.timedOut, true);
  assert.equal(slow.exitCode, null);
  assert.ok(Date.now() - started < 10_000, 'the children were killed with the shell');

  const controller = new AbortController();
  const pending = runner.run('sleep 30', wt, { signal: controller.signal, timeoutMs: 60_000 });
  setTimeout(() => controller.abort(new Error('user cancelled')), 100);
  await assert.rejects(pending, /user cancelled/);
});

test('the test command is detected from the project', () => {
  const a = temp();
  writeFileSync(join(a, 'package.json'), JSON.stringify({ scripts: { test: 'vitest run' } }));
  assert.equal(detectTestCommand(a), 'npm test');
  const b = temp();
  writeFileSync(join(b, 'package.json'), JSON.stringify({ scripts: { test: 'echo "Error: no test specified" && exit 1' } }));
  assert.equal(detectTestCommand(b), undefined);
  const c = temp();
  writeFileSync(join(c, 'go.mod'), 'module x\n');
  assert.equal(detectTestCommand(c), 'go test ./...');
  const d = temp();
  writeFileSync(join(d, 'package.json'), '{ broken');
  assert.equal(detectTestCommand(d), undefined);
});
