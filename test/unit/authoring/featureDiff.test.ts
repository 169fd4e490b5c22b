import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'node:test';
import { checkDrafts } from '../../../src/core/authoring/draftCheck';
import { featureDiff, featureDiffForPrompt } from '../../../src/core/authoring/featureDiff';
import { AUTHORING } from '../../../src/core/authoring/stageCommands';
import { loadSpec } from '../../../src/core/specdir/loadSpec';
import { featureBranchName, findWorktree } from '../../../src/core/specdir/worktree';
import { freshSpec } from './authoringFixture';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });

test("/review sees the feature's changes since HEAD, committed or not; outside git it says why", async () => {
  const s = freshSpec();
  try {
    const signal = new AbortController().signal;
    const outside = await featureDiff(loadSpec(s.root, s.dir), signal);
    assert.equal(outside.text, '');
    assert.match(outside.error ?? '', /git rev-parse failed in /);

    git(s.root, 'init', '-q');
    writeFileSync(join(s.root, 'app.js'), 'exports.a = 1;\n');
    git(s.root, 'add', '-A');
    git(s.root, 'commit', '-qm', 'base');
    writeFileSync(join(s.root, 'app.js'), 'exports.a = 2;\n');
    const diff = await featureDiff(loadSpec(s.root, s.dir), signal);
    assert.equal(diff.error, undefined);
    assert.match(diff.text, /app\.js \| 2 \+-/);
    assert.match(diff.text, /-exports\.a = 1;\n\+exports\.a = 2;/);

    // What the model is shown: the base, then the changes; or why there are none.
    assert.match(featureDiffForPrompt(diff), /^Compared with [0-9a-f]{12} \(HEAD of the repository\)\.\n\n app\.js \| 2 \+-/);
    assert.match(featureDiffForPrompt(outside), /^\(no diff: git rev-parse failed in .+\)$/);
    git(s.root, 'checkout', '-q', '--', 'app.js');
    assert.match(featureDiffForPrompt(await featureDiff(loadSpec(s.root, s.dir), signal)), /^\(no changes against [0-9a-f]{12} \(HEAD of the repository\)\)$/);
  } finally {
    s.cleanup();
  }
});

// Seen in the chat integration suite at load 20: the spec was read (and its worktree looked for,
// by the tree's offers) before the worktree was made in a terminal, and /review then diffed the
// main checkout, which had no change: "The prompt holds no diff of the feature".
test("/review diffs the feature worktree made after the spec was read, not what the spec's snapshot found first", async () => {
  const s = freshSpec();
  try {
    git(s.root, 'init', '-q');
    writeFileSync(join(s.root, 'app.js'), 'exports.a = 1;\n');
    git(s.root, 'add', '-A');
    git(s.root, 'commit', '-qm', 'base');
    const snapshot = loadSpec(s.root, s.dir);
    assert.equal(findWorktree(snapshot), undefined, 'no worktree yet');
    const worktree = `${s.root}-feature`;
    git(s.root, 'worktree', 'add', '-q', '-b', featureBranchName(snapshot.name), worktree);
    writeFileSync(join(worktree, 'app.js'), 'exports.a = 3;\n');
    git(worktree, 'commit', '-qam', 'T1');
    const diff = await featureDiff(snapshot, new AbortController().signal);
    assert.equal(diff.error, undefined);
    assert.match(diff.base, /where the feature branch left the main checkout/);
    assert.match(diff.text, /\+exports\.a = 3;/);
    git(s.root, 'worktree', 'remove', '--force', worktree);
  } finally {
    s.cleanup();
  }
});

test('/review and /respond drafts: placeholders and empty files are named', () => {
  const s = freshSpec();
  try {
    assert.deepEqual(checkDrafts(s.root, s.specDir, AUTHORING.review, [{ path: 'review-request.md', content: '# Review\n\nCovers REQ-001. TODO: list files\n', complete: true }]), [
      'review-request.md:3: placeholder "TODO" left in',
    ]);
    assert.deepEqual(checkDrafts(s.root, s.specDir, AUTHORING.respond, [{ path: 'review-response.md', content: '\n', complete: true }]), ['review-response.md is empty']);
    assert.deepEqual(checkDrafts(s.root, s.specDir, AUTHORING.respond, [{ path: 'review-response.md', content: '# Response\n\n1. FIXED: renamed the handler (src/app.js).\n', complete: true }]), []);
  } finally {
    s.cleanup();
  }
});
