import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, test } from 'node:test';
import { staleHandoffs } from '../../../src/core/specdir/handoffStaleness';
import { loadSpec } from '../../../src/core/specdir/loadSpec';
import { buildTraceabilityMatrix } from '../../../src/core/trace/traceabilityMatrix';
import { classifyConvergence } from '../../../src/core/validators/convergence';
import { huntOmissions } from '../../../src/core/validators/omissionHunt';
import { SPEC, harness, implementerDone, PASS, REPORT_PASS, type Harness } from './helpers/executingFixture';

const made: Harness[] = [];
after(() => made.forEach((h) => h.repo.dispose()));

const WORKTREE = '.worktree/2026-11-25-due-dates';

/**
 * The loop's tests live in the feature worktree (`.worktree/<date>-<name>`, inside the
 * repository), which loom never looks in: loom's traceability.js resolveProjectReference looks
 * in the spec directory, then projectRootForSpecDir (the repository holding specs/), and
 * converge.mjs's fileExists in the spec directory or two levels up. So the loop records each test
 * through the worktree, from the repository root, and every check (ours and loom's) finds it
 * before the feature is merged.
 */
test('a run in a feature worktree records its tests through the worktree, where loom finds them', async () => {
  const h = harness({ worktree: WORKTREE });
  made.push(h);
  h.models.script('implementer', ...implementerDone('T1'), ...implementerDone('T2'));
  h.models.script('reviewer', PASS, PASS);
  h.models.script('test-reporter', REPORT_PASS);

  const result = await h.loop.run(new AbortController().signal);
  assert.equal(result.outcome, 'completed', result.message);
  assert.ok(existsSync(h.repo.path(`${WORKTREE}/tests/due.test.js`)), 'the implementer wrote into the worktree');
  assert.equal(existsSync(h.repo.path('tests/due.test.js')), false, 'not into the repository');

  const trace = h.repo.json(`${SPEC}/traceability.json`);
  assert.deepEqual(trace.requirements['REQ-001'].behaviors['REQ-001-B01'].tests, [`${WORKTREE}/tests/due.test.js#REQ-001-B01 parses a valid date`]);
  assert.deepEqual(trace.requirements['REQ-002'].behaviors['REQ-002-B01'].tests, [`${WORKTREE}/tests/format.test.js#REQ-002-B01 shows the due date`]);

  // The subagents work inside the worktree: the test reporter sees the refs relative to it.
  const [reporterPrompt] = h.models.promptsOf('test-reporter');
  assert.match(reporterPrompt, /tests \S*tests\/due\.test\.js#REQ-001-B01 parses a valid date/);
  assert.doesNotMatch(reporterPrompt, /\.worktree\//);

  const s = loadSpec(h.repo.root, h.specDir);
  assert.equal(buildTraceabilityMatrix(s).summary.closed, 3);
  assert.deepEqual(
    classifyConvergence(s).findings.filter((f) => f.severity === 'blocker'),
    [],
  );
  assert.equal(huntOmissions(s).findings.filter((f) => f.severity === 'blocker').length, 0);

  // The loop's own handoffs carry loom's artifact_fingerprints (from the repository: the new
  // source files are only in the worktree, so only the spec's report and log) and no basis,
  // which every convergence round reworks.
  for (const name of ['T1', 'T2', 'executing']) {
    const handoff = h.repo.json(`${SPEC}/handoffs/${name}.json`);
    assert.equal(handoff.basis_fingerprints, undefined, name);
    assert.deepEqual(
      Object.keys(handoff.artifact_fingerprints).filter((p) => !p.startsWith('evidence/')),
      name === 'executing' ? ['test-report.md'] : [],
      name,
    );
  }
  assert.deepEqual(staleHandoffs(s), []);
});
