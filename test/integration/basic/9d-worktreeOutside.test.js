'use strict';
const assert = require('assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { loom, waitFor, specRow, folderPath, git } = require('../helpers');

// A worktree made or removed outside Loom (a terminal's `git worktree add`) changes no file of
// the spec: Loom watches git's records of its worktrees (src/host/specs/worktreeWatch.ts).
suite('a feature worktree made outside Loom', () => {
  let api;
  let root;
  let worktree;
  suiteSetup(async () => {
    api = await loom();
    root = folderPath();
    worktree = path.join(fs.realpathSync(os.tmpdir()), `loom-outside-wt-${process.pid}`);
  });
  suiteTeardown(() => {
    fs.rmSync(worktree, { recursive: true, force: true });
    fs.rmSync(path.join(root, '.git'), { recursive: true, force: true });
  });

  test('the row stops offering Create Worktree once git has the feature branch checked out elsewhere, and offers it again once that worktree is removed', async function () {
    this.timeout(60000);
    // user-login is at executing, with no worktree recorded in its state.
    const offersCreate = async () => (await specRow(api, 'user-login')).contextValue.endsWith(':worktree');
    assert.ok(await offersCreate(), (await specRow(api, 'user-login')).contextValue);

    git(root, 'init', '-q', '-b', 'main');
    git(root, 'add', '-A');
    git(root, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'the fixture');
    // A repository made a moment ago: VS Code's watcher takes the new .git in a moment (a worktree
    // made before it is seen at the window's next focus or terminal command instead).
    await new Promise((resolve) => setTimeout(resolve, 2000));
    // The branch loom's git-worktree stage makes for 2026-11-20+user-login, made by hand.
    git(root, 'worktree', 'add', '-q', '-b', 'feature/2026-11-20-user-login', worktree);
    await waitFor('the user-login row to see the worktree made in a terminal', async () => !(await offersCreate()), 30000).catch(async (e) => {
      throw new Error(`${e.message}: ${(await specRow(api, 'user-login')).contextValue}`);
    });

    git(root, 'worktree', 'remove', '--force', worktree);
    await waitFor('the user-login row to offer Create Worktree again', offersCreate, 30000);
  });
});
