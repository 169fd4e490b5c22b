import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { test } from 'node:test';
import { openThreadsOn } from '../../../src/core/review/openThreads';
import { feedbackSha256Of } from '../../../src/core/review/reviewToAnswer';
import { loadSpec } from '../../../src/core/specdir/loadSpec';
import { findWorktree } from '../../../src/core/specdir/worktree';
import { SPEC, state, TempRepo } from '../../helpers/tempRepo';

const NOW = '2026-12-07T04:00:00.000Z';
const thread = (status: 'open' | 'resolved') => ({
  version: 1,
  threads: [
    {
      id: 't1',
      file: 'spec.md',
      line: 1,
      end_line: 1,
      quote: '# Login',
      status,
      created_at: NOW,
      comments: [{ id: 'c1', author: 'ana', body: 'Which login providers?', created_at: NOW }],
    },
  ],
});

// The guards decide from the snapshot: the worktree, the open threads and the review's answer are
// facts of one read of the spec, so every guard of a request sees the same, and the disk is read once.
test('the worktree, the open threads and the review answered are facts of the read of the spec, found again at the next read', () => {
  const r = new TempRepo();
  try {
    const worktree = r.path('worktrees/login');
    r.write(`${SPEC}/pipeline.state.json`, state('executing', { metadata: { worktree_path: worktree } }));
    r.write(`${SPEC}/spec.md`, '# Login');
    r.write(`${SPEC}/review-comments.json`, thread('resolved'));
    r.write(`${SPEC}/review-feedback.md`, '# Review\n');
    const read = loadSpec(r.root, r.path(SPEC));
    assert.equal(findWorktree(read), undefined);
    assert.deepEqual(openThreadsOn(read, ['spec.md']), []);
    const answered = feedbackSha256Of(read);
    assert.match(answered ?? '', /^[0-9a-f]{64}$/);

    // Made after the spec was read: not a fact of that read.
    mkdirSync(worktree, { recursive: true });
    r.write(`${SPEC}/review-comments.json`, thread('open'));
    r.write(`${SPEC}/review-feedback.md`, '# Review, round 2\n');
    assert.equal(findWorktree(read), undefined, 'the worktree as the read found it');
    assert.deepEqual(openThreadsOn(read, ['spec.md']), [], 'the threads as the read found them');
    assert.equal(feedbackSha256Of(read), answered, 'the feedback the review answered is judged against, as the read found it');

    const again = loadSpec(r.root, r.path(SPEC));
    assert.equal(findWorktree(again), worktree);
    assert.equal(openThreadsOn(again, ['spec.md']).length, 1);
    assert.notEqual(feedbackSha256Of(again), answered);
  } finally {
    r.dispose();
  }
});
