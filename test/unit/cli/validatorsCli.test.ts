/**
 * `loom-vscode analyze`, `converge` and `verify` over fixture specs built in temp directories,
 * run in-process through main(argv, io).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { main } from '../../../src/cli/main';
import { state, TempRepo } from '../../helpers/tempRepo';
import { plannedSpec, sha256, SPEC } from '../validators/validatorFixture';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

async function inRepo<T>(setup: (r: TempRepo) => void, body: (r: TempRepo) => Promise<T>): Promise<T> {
  const r = new TempRepo('loom-cli-validators-');
  try {
    setup(r);
    return await body(r);
  } finally {
    r.dispose();
  }
}

/** plannedSpec() with one error finding (T2 is not in plan.md). */
const oneError = (r: TempRepo) => {
  plannedSpec(r);
  r.write(`${SPEC}/plan.md`, '# Plan\n\n[T1](tasks/T1.md) only.\n');
};

describe('loom-vscode analyze', () => {
  it('writes artifact-analysis.json and prints the findings; exit 1 while an error remains', async () => {
    await inRepo(oneError, async (r) => {
      const run = await cli('analyze', '--cwd', r.root, '--spec-dir', SPEC);
      assert.equal(run.code, 1);
      assert.equal(run.err, '');
      assert.equal(
        run.out,
        [
          `${SPEC}: artifact analysis blocked (1 blocking)`,
          '  requirement_coverage 100%, behavior_coverage 100%, required_category_coverage 100%, traceability_req_coverage 100%, traceability_behavior_coverage 100%',
          `  F-1 error [unrequested] ${SPEC}/tasks/T2.md:1 T2 has a task file but plan.md does not name T2.md`,
          '    fix: name T2.md in plan.md (e.g. [T2](tasks/T2.md) in the task overview), or remove tasks/T2.md',
          '',
        ].join('\n'),
      );
      assert.equal(r.json(`${SPEC}/artifact-analysis.json`).status, 'blocked');
    });
  });

  // loom's run --advance re-runs runAnalyzeArtifacts (analyze-artifacts.mjs), which reads no
  // override: the override is recorded and shown, and analyze still fails as loom would.
  it('--override records who accepts the error and why, and still exits 1; --json prints the report with the override', async () => {
    await inRepo(oneError, async (r) => {
      assert.equal((await cli('analyze', '--cwd', r.root, '--spec-dir', SPEC)).code, 1);
      const before = r.read(`${SPEC}/artifact-analysis.json`);
      const run = await cli('analyze', '--cwd', r.root, '--spec-dir', SPEC, '--override', 'F-1', '--reason', 'T2 is in the release plan', '--json');
      assert.equal(run.code, 1, run.err);
      const printed = JSON.parse(run.out);
      assert.equal(r.read(`${SPEC}/artifact-analysis.json`), before, "loom's report is left as loom's script writes it");
      assert.deepEqual([printed.status, printed.blocker_count], ['blocked', 1]);
      assert.deepEqual(
        printed.overrides.map((o: { finding_id: string; reason: string; by?: string }) => [o.finding_id, o.reason, o.by?.endsWith('(loom-vscode analyze --override)')]),
        [['F-1', 'T2 is in the release plan', true]],
      );
      assert.deepEqual(r.json(`${SPEC}/artifact-analysis.overrides.json`).overrides, printed.overrides);
      const human = await cli('analyze', '--cwd', r.root, '--spec-dir', SPEC);
      assert.equal(human.code, 1);
      assert.match(human.out, /F-1 error \(overridden by .*\(loom-vscode analyze --override\): T2 is in the release plan\) \[unrequested\]/);
      assert.match(human.out, /1 overridden finding still blocks: loom's run --advance re-runs analyze-artifacts and does not read overrides, so fix the artifacts/);
    });
  });

  it('bad usage and unreadable input exit 2, leaving the files as they were', async () => {
    await inRepo(oneError, async (r) => {
      assert.equal((await cli('analyze', '--cwd', r.root, '--spec-dir', SPEC, '--override', 'F-1')).code, 2);
      assert.equal((await cli('analyze', '--cwd', r.root, '--spec-dir', SPEC, '--reason', 'why')).code, 2);
      const missing = await cli('analyze', '--cwd', r.root, '--spec-dir', SPEC, '--override', 'F-7', '--reason', 'why');
      assert.deepEqual([missing.code, missing.err.trim()], [2, 'loom-vscode: artifact-analysis.json has no finding F-7']);
      r.write(`${SPEC}/artifact-analysis.json`, '{ broken');
      const corrupt = await cli('analyze', '--cwd', r.root, '--spec-dir', SPEC);
      assert.equal(corrupt.code, 2);
      assert.match(corrupt.err, /artifact-analysis.json is corrupt; fix or delete it first \(it was left untouched\)/);
      assert.equal(r.read(`${SPEC}/artifact-analysis.json`), '{ broken');
      assert.equal((await cli('converge', '--cwd', r.root, '--spec-dir', SPEC, '--override', 'F-1')).code, 2, 'only analyze takes --override');
    });
  });
});

describe('loom-vscode converge', () => {
  it('exit 0 when converged; --json prints the report', async () => {
    await inRepo(
      (r) => plannedSpec(r, { executed: true }),
      async (r) => {
        const run = await cli('converge', '--cwd', r.root, '--spec-dir', SPEC, '--json');
        assert.equal(run.code, 0, run.err);
        const report = JSON.parse(run.out);
        assert.deepEqual([report.stage, report.round, report.status, report.blocker_count], ['converge', 1, 'converged', 0]);
        assert.deepEqual(report, r.json(`${SPEC}/convergence-report.json`));
      },
    );
  });

  it('exit 1 when another round is needed, naming the appended task; the last round says escalate', async () => {
    const gaps = (r: TempRepo) => {
      plannedSpec(r, { executed: true });
      const trace = r.json(`${SPEC}/traceability.json`);
      trace.requirements['REQ-002'].behaviors['REQ-002-B01'] = { tasks: ['T2'], tests: [], evidence: [] };
      r.write(`${SPEC}/traceability.json`, trace);
      r.write(`${SPEC}/task-states/T2.state.json`, { task_id: 'T2', status: 'done', retry_count: 0 });
    };
    await inRepo(gaps, async (r) => {
      const run = await cli('converge', '--cwd', r.root, '--spec-dir', SPEC);
      assert.equal(run.code, 1);
      assert.equal(
        run.out,
        [
          `${SPEC}: convergence round 1 needs_another_round (67% covered, 1 blocking)`,
          `  F-conv-1 blocker [missing] ${SPEC}/traceability.json:49 REQ-002-B01 is missing: no test; no evidence`,
          '    fix: add a task that implements the tests and evidence of REQ-002-B01',
          '  appended T3 (tasks/T3.md) for REQ-002-B01',
          '',
        ].join('\n'),
      );
      r.write(`${SPEC}/pipeline.state.json`, state('converge', { metadata: { convergence_round: 2 } }));
      const last = await cli('converge', '--cwd', r.root, '--spec-dir', SPEC);
      assert.equal(last.code, 1);
      assert.match(last.out, /convergence round 3 needs_another_round/);
      assert.match(last.out, /round 3 was the last: escalate/);
      assert.doesNotMatch(last.out, /appended/);
    });
  });
});

describe('loom-vscode verify', () => {
  const verified = (r: TempRepo) => {
    plannedSpec(r, { executed: true });
    const text = `# Report\n\nREQ-001 PASS, REQ-002 PASS\n\nevidence-command: npm test\nevidence-exit-code: 0\nevidence-file: evidence/test.log\nevidence-sha256: ${sha256('all passed\n')}\n\nverdict: PASS\n`;
    r.write(`${SPEC}/test-report.md`, text);
    r.write(`${SPEC}/verify-report.md`, text);
  };

  it('exit 0 when verification holds; --json prints the findings', async () => {
    await inRepo(verified, async (r) => {
      const run = await cli('verify', '--cwd', r.root, '--spec-dir', SPEC, '--json');
      assert.equal(run.code, 0, run.err);
      assert.deepEqual(JSON.parse(run.out), { spec_dir: SPEC, validator: 'verification-artifacts', passed: true, findings: [] });
      const human = await cli('verify', '--cwd', r.root, '--spec-dir', SPEC);
      assert.equal(human.out, `${SPEC}: verification-artifacts passed\nNo findings.\n`);
    });
  });

  it('exit 1 with the findings when it fails; writes nothing', async () => {
    await inRepo(
      (r) => {
        verified(r);
        r.write(`${SPEC}/verify-report.md`, 'verdict: FAIL\n');
      },
      async (r) => {
        const run = await cli('verify', '--cwd', r.root, '--spec-dir', SPEC);
        assert.equal(run.code, 1);
        assert.equal(
          run.out,
          [
            `${SPEC}: verification-artifacts failed`,
            `  VA-1 error [contradicts] ${SPEC}/verify-report.md:1 verify-report.md line 1 reports a failure without a known-warning context (loom refuses a report that says FAIL, in any case, unless it also says WARN or known)`,
            `  VA-2 error [missing] ${SPEC}/verify-report.md verify-report.md has no verdict: PASS line`,
            '',
          ].join('\n'),
        );
        const json = await cli('verify', '--cwd', r.root, '--spec-dir', SPEC, '--json');
        assert.equal(JSON.parse(json.out).passed, false);
        assert.equal(json.code, 1);
      },
    );
  });

  it('a spec directory that does not exist is bad usage', async () => {
    await inRepo(verified, async (r) => {
      assert.equal((await cli('verify', '--cwd', r.root, '--spec-dir', 'specs/nope')).code, 2);
      assert.equal((await cli('verify', '--cwd', r.root)).code, 2);
    });
  });
});
