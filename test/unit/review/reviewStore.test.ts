import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'node:test';
import { CorruptArtifactError } from '../../../src/core/errors';
import { REVIEW_COMMENTS_FILE } from '../../../src/core/review/reviewComments';
import { readReviewComments, updateReviewComments } from '../../../src/core/review/reviewStore';
import { addThread, deleteComment, editComment, replyToThread, setThreadStatus } from '../../../src/core/review/threadEdits';
import { TempRepo, SPEC } from '../../helpers/tempRepo';

const NOW = '2026-12-01T10:00:00.000Z';
const at = (r: TempRepo) => ({ dir: r.path(SPEC), specDir: SPEC });
const first = { file: 'spec.md', line: 3, endLine: 4, quote: 'a\nb', author: 'Mei', body: 'Say which password rules apply.', now: NOW };

test('threads round-trip through review-comments.json: add, reply, edit, resolve, reopen, delete', () => {
  const r = new TempRepo();
  try {
    r.write(`${SPEC}/spec.md`, '# Login\n');
    assert.deepEqual(readReviewComments(at(r)), { version: 1, threads: [] }, 'no file yet is no thread');
    const t = updateReviewComments(at(r), (c) => addThread(c, first));
    const reply = updateReviewComments(at(r), (c) => replyToThread(c, t.id, 'Ann', 'Agreed.', NOW));
    updateReviewComments(at(r), (c) => editComment(c, t.id, reply.id, 'Agreed, and the lockout too.', '2026-12-01T10:05:00.000Z'));
    updateReviewComments(at(r), (c) => setThreadStatus(c, t.id, 'resolved'));
    let back = readReviewComments(at(r));
    assert.equal(back.threads.length, 1);
    assert.deepEqual([back.threads[0].file, back.threads[0].line, back.threads[0].end_line, back.threads[0].quote, back.threads[0].status], ['spec.md', 3, 4, 'a\nb', 'resolved']);
    assert.deepEqual(
      back.threads[0].comments.map((c) => [c.author, c.body, c.created_at, c.edited_at]),
      [
        ['Mei', 'Say which password rules apply.', NOW, undefined],
        ['Ann', 'Agreed, and the lockout too.', NOW, '2026-12-01T10:05:00.000Z'],
      ],
    );
    updateReviewComments(at(r), (c) => setThreadStatus(c, t.id, 'open'));
    updateReviewComments(at(r), (c) => deleteComment(c, t.id, reply.id));
    back = readReviewComments(at(r));
    assert.deepEqual([back.threads[0].status, back.threads[0].comments.length], ['open', 1]);
    updateReviewComments(at(r), (c) => deleteComment(c, t.id, back.threads[0].comments[0].id));
    assert.deepEqual(readReviewComments(at(r)).threads, [], 'a thread without comments goes');
    assert.equal(existsSync(r.path(`${SPEC}/.loom-run.lock`)), false, 'the run lock is released');
  } finally {
    r.dispose();
  }
});

test('a corrupt review-comments.json is reported by name and never overwritten', () => {
  const r = new TempRepo();
  try {
    for (const bad of ['{ "version": 1, "threads": [', '{ "version": 1, "threads": [{ "id": "t1" }] }']) {
      const path = r.write(`${SPEC}/${REVIEW_COMMENTS_FILE}`, bad);
      assert.throws(
        () => readReviewComments(at(r)),
        (e: unknown) => e instanceof CorruptArtifactError && e.message.includes(`${SPEC}/${REVIEW_COMMENTS_FILE}`) && e.message.includes('left untouched'),
      );
      assert.throws(() => updateReviewComments(at(r), (c) => addThread(c, first)), CorruptArtifactError);
      assert.equal(readFileSync(path, 'utf8'), bad, 'the file is untouched');
    }
  } finally {
    r.dispose();
  }
});

test('an edit of a thread that is gone names it and writes nothing', () => {
  const r = new TempRepo();
  try {
    r.write(`${SPEC}/spec.md`, '# Login\n');
    updateReviewComments(at(r), (c) => addThread(c, first));
    const before = readFileSync(join(r.path(SPEC), REVIEW_COMMENTS_FILE), 'utf8');
    assert.throws(() => updateReviewComments(at(r), (c) => replyToThread(c, 'tmissing', 'Mei', 'x', NOW)), /tmissing/);
    assert.equal(readFileSync(join(r.path(SPEC), REVIEW_COMMENTS_FILE), 'utf8'), before);
  } finally {
    r.dispose();
  }
});
