import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
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

// loom 3 pipeline-engine.js checkReviewFeedbackApproval: a PASS with BLOCKER, FAIL, FAILED,
// CHANGES_REQUESTED ... anywhere (any case) does not pass the review gate. Exporting one would write
// a review that only looks approved, so it is refused; Changes requested is exported as it is.
test('a PASS whose comments hold a blocking marker is refused, naming the marker; nothing is written', () => {
  const r = new TempRepo();
  try {
    r.write(`${SPEC}/spec.md`, '# Login\n');
    const at = { dir: r.path(SPEC), specDir: SPEC };
    updateReviewComments(at, (c) => addThread(c, { file: 'src/login.js', line: 3, endLine: 3, quote: 'x', author: 'Mei', body: 'This check failed once on CI; fine now.', now: NOW }));
    assert.throws(
      () => exportReviewFeedback(at, 'Login', readReviewComments(at).threads, 'PASS'),
      /A PASS cannot be exported: loom's review gate refuses review-feedback\.md holding FAILED \(line 5;/,
    );
    assert.equal(existsSync(join(r.root, SPEC, 'review-feedback.md')), false);
    const rel = exportReviewFeedback(at, 'Login', readReviewComments(at).threads, 'CHANGES_REQUESTED');
    assert.match(readFileSync(join(r.root, rel), 'utf8'), /verdict: CHANGES_REQUESTED\n$/);
  } finally {
    r.dispose();
  }
});
