import { formatTrace } from '../../../src/cli/format';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { evaluateGuard } from '../../../src/core/pipeline/guards';
import { projectRootForSpecDir, testRefChecker, testRefInWorktree, testRefThroughWorktree } from '../../../src/core/trace/testRefs';
import { buildTraceabilityMatrix } from '../../../src/core/trace/traceabilityMatrix';
import { classifyConvergence } from '../../../src/core/validators/convergence';
import { huntOmissions } from '../../../src/core/validators/omissionHunt';
import { verificationArtifacts } from '../../../src/core/validators/verificationArtifacts';
import { load, plannedSpec, sha256, SPEC, withRepo, type TempRepo } from '../validators/validatorFixture';

/**
 * Test references resolve as loom 3 resolves them, never in the feature worktree:
 * traceability.js `resolveProjectReference` (spec directory, then `projectRootForSpecDir`, the
 * repository holding specs/) for verification and the matrix, converge.mjs / omission-hunt.mjs
 * `fileExists` (spec directory, then two levels up) for converge and the omission hunt. The
 * repository here is built the way loom and the extension leave it: the spec under specs/, the
 * feature worktree under `.worktree/<date>-<name>` (recorded in the state's `worktree_path`), its
 * tests not merged yet.
 */
const WORKTREE = '.worktree/2026-11-29-login';

function withWorktree(r: TempRepo, tests: (file: string) => string): void {
  plannedSpec(r);
  r.write(`${WORKTREE}/tests/login.test.ts`, '// login\n');
  r.write(`${WORKTREE}/tests/logout.test.ts`, '// logout\n');
  r.write(`${SPEC}/evidence/test.log`, 'all passed\n');
  const refs = (name: string) => ({ tests: [tests(name)], evidence: ['evidence/test.log'] });
  r.write(`${SPEC}/traceability.json`, {
    requirements: {
      'REQ-001': { tasks: ['T1'], ...refs('login'), behaviors: { 'REQ-001-B01': { tasks: ['T1'], ...refs('login') }, 'REQ-001-B02': { tasks: ['T1'], ...refs('login') } } },
      'REQ-002': { tasks: ['T2'], ...refs('logout'), behaviors: { 'REQ-002-B01': { tasks: ['T2'], ...refs('logout') } } },
    },
  });
  r.write(`${SPEC}/pipeline.state.json`, {
    spec_dir: SPEC,
    pipeline_type: 'feature',
    current_stage: 'verification',
    stage_history: [],
    metadata: { worktree_path: r.path(WORKTREE) },
  });
  const receipt = `- evidence-command: npm test\n- evidence-exit-code: 0\n- evidence-file: evidence/test.log\n- evidence-sha256: ${sha256('all passed\n')}\n`;
  for (const name of ['test-report.md', 'verify-report.md']) r.write(`${SPEC}/${name}`, `# Report\n\n| REQ-001 | PASS |\n| REQ-002 | PASS |\n\n${receipt}\nverdict: PASS\n`);
}

const planned = (name: string) => `tests/${name}.test.ts#${name}`;
const throughWorktree = (name: string) => `${WORKTREE}/tests/${name}.test.ts#${name}`;

describe('test references: where loom looks', () => {
  it('projectRootForSpecDir: the repository for specs/<name>, the spec directory itself elsewhere', () => {
    assert.equal(projectRootForSpecDir(join('/repo', 'specs', 'x')), '/repo');
    assert.equal(projectRootForSpecDir(join('/repo', 'Specs', 'x')), '/repo');
    assert.equal(projectRootForSpecDir(join('/repo', 'qa', 'x')), join('/repo', 'qa', 'x'));
  });

  it("traceability.js's rule: spec directory, then the repository; absolute as is; URL-like never; #name and ::name cut", () =>
    withRepo((r) => {
      withWorktree(r, planned);
      r.write(`${SPEC}/tests/local.test.ts`, '');
      r.write('tests/root.test.ts', '');
      const check = testRefChecker(load(r));
      assert.equal(check.traceability('tests/local.test.ts#a').path, r.path(`${SPEC}/tests/local.test.ts`));
      assert.equal(check.traceability(' tests/root.test.ts::b ').path, r.path('tests/root.test.ts'));
      assert.equal(check.traceability(r.path('tests/root.test.ts')).exists, true);
      assert.equal(check.traceability('https://ci.example/run/1').exists, false);
      assert.equal(check.traceability('tests/').exists, true, 'existsSync: a folder counts');
      assert.deepEqual(check.traceability('tests/login.test.ts#login'), {
        exists: false,
        worktreeOnly: r.path(`${WORKTREE}/tests/login.test.ts`),
        recordAs: `${WORKTREE}/tests/login.test.ts#login`,
      });
      assert.equal(check.traceability(throughWorktree('login')).exists, true);
      assert.deepEqual(check.traceability('tests/none.test.ts'), { exists: false });
    }));

  it("converge.mjs's fileExists: URL-like refs count, the ref is cut at its first # or :, spec directory or two levels up", () =>
    withRepo((r) => {
      withWorktree(r, planned);
      r.write('tests/root.test.ts', '');
      const check = testRefChecker(load(r));
      assert.equal(check.converge('https://ci.example/run/1').exists, true);
      assert.equal(check.converge('tests/root.test.ts:12').exists, true);
      assert.equal(check.traceability('tests/root.test.ts:12').exists, false, "traceability.js cuts only at '#' and '::'");
      assert.equal(check.converge('tests/login.test.ts#login').exists, false);
      assert.equal(check.converge('tests/login.test.ts#login').recordAs, `${WORKTREE}/tests/login.test.ts#login`);
      assert.equal(check.converge(throughWorktree('login')).exists, true);
    }));

  it('a test of the worktree is recorded through it, from the root loom resolves from, and read back inside it', () => {
    const spec = join('/repo', 'specs', '2026-11-29+login');
    assert.equal(testRefThroughWorktree(spec, join('/repo', WORKTREE), 'tests\\login.test.ts#logs in'.replace('\\', '/')), `${WORKTREE}/tests/login.test.ts#logs in`);
    assert.equal(testRefThroughWorktree(spec, '/elsewhere/login-wt', 'tests/login.test.ts::x'), '../elsewhere/login-wt/tests/login.test.ts::x');
    assert.equal(testRefThroughWorktree(spec, '/repo', 'tests/login.test.ts'), 'tests/login.test.ts', 'no worktree: the ref is already where loom looks');
    assert.equal(testRefThroughWorktree(spec, join('/repo', WORKTREE), '/abs/t.test.ts'), '/abs/t.test.ts');
    assert.equal(testRefInWorktree(spec, join('/repo', WORKTREE), `${WORKTREE}/tests/login.test.ts#logs in`), 'tests/login.test.ts#logs in');
    assert.equal(testRefInWorktree(spec, '/elsewhere/login-wt', '../elsewhere/login-wt/tests/login.test.ts'), 'tests/login.test.ts');
    assert.equal(testRefInWorktree(spec, join('/repo', WORKTREE), 'tests/other.test.ts'), 'tests/other.test.ts');
  });
});

describe('test references only in the feature worktree: every check refuses as loom does, and says why', () => {
  it('verification-artifacts (verify-artifacts.mjs → validateTraceabilityFile) refuses, naming the worktree path and where loom looks', () =>
    withRepo((r) => {
      withWorktree(r, planned);
      const result = verificationArtifacts(load(r));
      assert.equal(result.passed, false);
      const messages = (result.findings ?? []).map((f) => f.message);
      assert.ok(
        messages.includes(
          `REQ-001-B01: tests/login.test.ts#login is not in the spec directory or the repository root, where loom looks for tests; only the feature worktree has it (name it ${WORKTREE}/tests/login.test.ts#login, or merge the feature first)`,
        ),
        messages.join('\n'),
      );
      assert.ok(
        messages.some((m) => m.startsWith('REQ-002: tests/logout.test.ts#logout is not in the spec directory')),
        'requirement-level tests too',
      );
    }));

  it('convergence (converge.mjs: every test must exist) classifies the behaviors partial', () =>
    withRepo((r) => {
      withWorktree(r, planned);
      const report = classifyConvergence(load(r));
      assert.deepEqual(report.classification, { 'REQ-001-B01': 'partial', 'REQ-001-B02': 'partial', 'REQ-002-B01': 'partial' });
      assert.match(
        report.findings[0].message,
        new RegExp(`only in the feature worktree, not in the spec directory or the repository root where loom looks \\(name it ${WORKTREE}/tests/login.test.ts#login`),
      );
    }));

  it('the omission hunt (omission-hunt.mjs) reports each as a blocker', () =>
    withRepo((r) => {
      withWorktree(r, planned);
      const report = huntOmissions(load(r));
      assert.equal(report.status, 'blocked');
      assert.equal(report.findings.filter((f) => f.severity === 'blocker').length, 3);
      assert.match(
        report.findings[0].message,
        /REQ-001-B01 test reference not found in the spec directory or the repository root, where loom looks: tests\/login.test.ts#login is only in the feature worktree/,
      );
    }));

  it('the matrix shows them as only in the worktree, not closed, and the closure guard says how to name them', () =>
    withRepo((r) => {
      withWorktree(r, planned);
      const s = load(r);
      const matrix = buildTraceabilityMatrix(s);
      assert.equal(matrix.summary.closed, 0);
      assert.deepEqual(matrix.rows[0].tests, [
        { ref: 'tests/login.test.ts#login', exists: false, reason: 'only-in-worktree', path: `${WORKTREE}/tests/login.test.ts`, recordAs: `${WORKTREE}/tests/login.test.ts#login` },
      ]);
      // loom-vscode trace says the same in its text form.
      assert.match(
        formatTrace(matrix),
        new RegExp(`REQ-001-B01: tests/login.test.ts#login is only in the feature worktree, where loom does not look \\(name it ${WORKTREE}/tests/login.test.ts#login\\)`),
      );
      const guard = evaluateGuard({ type: 'traceabilityClosed', params: {} }, { snapshot: s });
      assert.equal(guard.ok, false);
      assert.match(
        guard.reasons[0],
        new RegExp(`REQ-001-B01 is not closed \\(its tests are only in the feature worktree, where loom does not look .*: name them ${WORKTREE}/tests/login.test.ts#login\\)`),
      );
    }));

  it('named through the worktree, as the executing loop records them, every check passes as loom passes', () =>
    withRepo((r) => {
      withWorktree(r, throughWorktree);
      const s = load(r);
      assert.deepEqual(
        (verificationArtifacts(s).findings ?? []).map((f) => f.message),
        [],
      );
      assert.equal(classifyConvergence(s).status, 'converged');
      assert.equal(huntOmissions(s).status, 'pass');
      assert.equal(buildTraceabilityMatrix(s).summary.closed, 3);
      assert.equal(evaluateGuard({ type: 'traceabilityClosed', params: {} }, { snapshot: s }).ok, true);
    }));
});
