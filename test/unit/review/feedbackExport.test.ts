import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'node:test';
import { parseReport } from '../../../src/core/files/report';
import { exportReviewFeedback } from '../../../src/core/review/feedbackExport';
import { resolveRefinedThreads } from '../../../src/core/review/refineOutcome';
import { readReviewComments, updateReviewComments } from '../../../src/core/review/reviewStore';
import { addThread, replyToThread, setThreadStatus } from '../../../src/core/review/threadEdits';
import { SPEC, TempRepo } from '../../helpers/tempRepo';

const NOW = '2026-12-01T10:00:00.000Z';

test('open threads on the code export into review-feedback.md as code-review-response reads it; an existing one is kept', () => {
  const r = new TempRepo();
  try {
    r.write(`${SPEC}/spec.md`, '# Login\n');
    const at = { dir: r.path(SPEC), specDir: SPEC };
    const t = updateReviewComments(at, (c) => addThread(c, { file: 'src/login.js', line: 12, endLine: 14, quote: 'x', author: 'Mei', body: 'SUGGESTION: hash with a salt.', now: NOW }));
    updateReviewComments(at, (c) => replyToThread(c, t.id, 'Ann', 'Yes.', NOW));
    const done = updateReviewComments(at, (c) => addThread(c, { file: 'src/a.js', line: 1, endLine: 1, quote: 'y', author: 'Bo', body: 'settled', now: NOW }));
    updateReviewComments(at, (c) => setThreadStatus(c, done.id, 'resolved'));
    const rel = exportReviewFeedback(at, 'Login', readReviewComments(at).threads, 'PASS');
    const text = readFileSync(join(r.root, rel), 'utf8');
    assert.equal(text, '# Review feedback: Login\n\nReviewer: Mei, Ann\n\n- `src/login.js:12-14`: SUGGESTION: hash with a salt. (Mei) — Yes. (Ann)\n\nverdict: PASS\n');
    const report = parseReport('review-feedback.md', text);
    assert.deepEqual([report.reviewVerdict, report.blockingMarkers], ['PASS', []], 'the review gate lets it through');
    assert.throws(() => exportReviewFeedback(at, 'Login', readReviewComments(at).threads, 'PASS'), /exists already; it was left untouched/);
    assert.equal(readFileSync(join(r.root, rel), 'utf8'), text);
  } finally {
    r.dispose();
  }
});

test('after a refine, threads on written files get a reply and are resolved; the others stay open', () => {
  const r = new TempRepo();
  try {
    r.write(`${SPEC}/spec.md`, '# Login\n');
    const at = { dir: r.path(SPEC), specDir: SPEC };
    const a = updateReviewComments(at, (c) => addThread(c, { file: 'spec.md', line: 1, endLine: 1, quote: '# Login', author: 'Mei', body: 'Rename.', now: NOW }));
    const b = updateReviewComments(at, (c) => addThread(c, { file: 'plan.md', line: 1, endLine: 1, quote: '# Plan', author: 'Mei', body: 'Split.', now: NOW }));
    const out = resolveRefinedThreads(at, [a.id, b.id], ['spec.md'], new Map([[a.id, 'renamed to Sign in']]), {
      author: 'Loom',
      now: NOW,
      changed: (file, answer) => `${file}: ${answer ?? 'changed'}`,
    });
    assert.deepEqual(out.resolved, [a.id]);
    const [ta, tb] = readReviewComments(at).threads;
    assert.deepEqual([ta.status, ta.comments.at(-1)?.author, ta.comments.at(-1)?.body], ['resolved', 'Loom', 'spec.md: renamed to Sign in']);
    assert.deepEqual([tb.status, tb.comments.length], ['open', 1]);
  } finally {
    r.dispose();
  }
});
