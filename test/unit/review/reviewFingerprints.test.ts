import assert from 'node:assert/strict';
import test from 'node:test';
import { approvalFingerprints } from '../../../src/core/pipeline/approvalArtifacts';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { specDiagnostics } from '../../../src/core/repository/specDiagnostics';
import { REVIEW_COMMENTS_FILE } from '../../../src/core/review/reviewComments';
import { updateReviewComments } from '../../../src/core/review/reviewStore';
import { addThread } from '../../../src/core/review/threadEdits';
import { fingerprintDeclaredPaths, fingerprintPath } from '../../../src/core/specdir/fingerprints';
import { staleHandoffs } from '../../../src/core/specdir/handoffStaleness';
import { staleApprovals } from '../../../src/core/specdir/staleness';
import { plannedSpec, SPEC, state, TempRepo } from '../../helpers/tempRepo';

const comment = (r: TempRepo) =>
  updateReviewComments({ dir: r.path(SPEC), specDir: SPEC }, (c) =>
    addThread(c, { file: 'spec.md', line: 1, endLine: 1, quote: '# Login', author: 'Mei', body: 'Too short.', now: '2026-12-01T10:00:00Z' }),
  );

// loom 3 fingerprints.js: fingerprintPath digests every file below a folder and
// fingerprintDeclaredPaths every declared path, review-comments.json included; only the approval
// artifacts (approvalArtifactPaths) never name it.
test('review-comments.json is in no approval fingerprint, and a comment leaves approvals and handoffs fresh', () => {
  const r = new TempRepo();
  try {
    plannedSpec(r);
    comment(r);
    const load = () => new LoomRepository(r.root).load().get(SPEC)!;
    const spec = load();
    const prints = approvalFingerprints(spec.definition, 'planning', spec.snapshot);
    assert.ok(Object.keys(prints).includes('spec.md'));
    assert.ok(!Object.keys(prints).some((p) => p.includes(REVIEW_COMMENTS_FILE)), 'not an approval artifact');
    const roots = { dir: r.path(SPEC), repoRoot: r.root };
    assert.deepEqual(
      Object.keys(fingerprintDeclaredPaths([REVIEW_COMMENTS_FILE, `${SPEC}/${REVIEW_COMMENTS_FILE}`], roots)),
      [`${SPEC}/${REVIEW_COMMENTS_FILE}`],
      'declared, it is fingerprinted as loom fingerprints it (the bare name resolves from the repository root, where there is none)',
    );

    const folder = fingerprintPath(r.path(SPEC));
    r.write(`${SPEC}/handoffs/planning.json`, {
      stage: 'planning',
      status: 'done',
      artifacts: ['spec.md'],
      written_at: '2026-11-29T09:00:00Z',
      summary: 'planned',
      // Not the spec folder itself: a handoff inside the folder it fingerprints is stale once written.
      artifact_fingerprints: { 'spec.md': r.sha256(`${SPEC}/spec.md`) },
    });
    r.write(
      `${SPEC}/pipeline.state.json`,
      state('executing', {
        stage_history: [
          {
            stage: 'planning',
            entered_at: '2026-11-29T09:00:00.000Z',
            exited_at: '2026-11-29T09:30:00.000Z',
            status: 'passed',
            approval: 'user_confirmed',
            approved_at: '2026-11-29T09:30:00.000Z',
            approval_fingerprints: approvalFingerprints(spec.definition, 'planning', spec.snapshot),
          },
        ],
      }),
    );
    const before = fingerprintPath(r.path(SPEC));
    comment(r);
    comment(r);
    assert.notEqual(fingerprintPath(r.path(SPEC)), before, "a folder's digest covers the threads inside it, as loom's fingerprintPath does");
    assert.notEqual(folder, undefined);
    const after = load();
    assert.deepEqual(staleApprovals(after.snapshot), []);
    assert.deepEqual(staleHandoffs(after.snapshot), []);
  } finally {
    r.dispose();
  }
});

test("loom's reading of a spec ignores review-comments.json, even a corrupt one", () => {
  const r = new TempRepo();
  try {
    plannedSpec(r);
    const load = () => new LoomRepository(r.root).load().get(SPEC)!;
    const before = load();
    const next = before.next().map((t) => [t.to, t.ready, t.unmet]);
    r.write(`${SPEC}/${REVIEW_COMMENTS_FILE}`, '{ not json');
    const after = load();
    assert.deepEqual(
      after.next().map((t) => [t.to, t.ready, t.unmet]),
      next,
    );
    assert.deepEqual(
      specDiagnostics(after).filter((d) => d.file.includes(REVIEW_COMMENTS_FILE)),
      [],
    );
    assert.equal(specDiagnostics(after).length, specDiagnostics(before).length);
  } finally {
    r.dispose();
  }
});
