import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { SpecLockedError } from '../../../src/core/errors';
import { parseTaskFile } from '../../../src/core/files/taskFile';
import { applyTextEdits } from '../../helpers/textEdits';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { specDiagnostics } from '../../../src/core/repository/specDiagnostics';
import { artifactAnalysisPass, writeArtifactAnalysis } from '../../../src/core/validators/artifactAnalysis';
import { findingFixEdits } from '../../../src/core/validators/findingFix';
import { checkStage } from '../../helpers/intents';
import { mergeFindingDiagnostics, stageFindingDiagnostics, stageValidatorNames } from '../../../src/core/validators/stageFindings';
import { state } from '../../helpers/tempRepo';
import { load, NOW, plannedSpec, SPEC, taskText, withRepo, type TempRepo } from './validatorFixture';

const WORKFLOW = [
  'pipelines:',
  '  feature:',
  '    steps:',
  '      - { id: planning, next: analyze-artifacts, validators: [planning-artifacts] }',
  '      - { id: analyze-artifacts, next: approved, validators: [artifact-analysis-pass, convergence-pass] }',
  '      - { id: approved, gate: human-approval, next: executing }',
  '      - { id: executing, next: converge }',
  '      - { id: converge, next: verification, validators: [convergence-pass] }',
  '      - { id: verification, validators: [verification-artifacts] }',
  '',
].join('\n');

/** plannedSpec() at `stage` under WORKFLOW, changed by `setup`, as the host loads it. */
function spec(r: TempRepo, stage: string, setup: (r: TempRepo) => void = () => {}) {
  plannedSpec(r);
  r.write('.loom/workflow.yaml', WORKFLOW);
  r.write(`${SPEC}/pipeline.state.json`, state(stage));
  setup(r);
  return new LoomRepository(r.root).load().get(SPEC)!;
}

/** T1 without REQ-001-B02 (still traced to T1), and naming a behavior nobody declared. */
const t1Drifted = (r: TempRepo) =>
  r.write(`${SPEC}/tasks/T1.md`, taskText({ owns: ['src/login.ts'], depends_on: ['T9'], requirements: ['REQ-001'], behavior_ids: ['REQ-001-B01', 'REQ-009-B01'] }, 'T1: Login'));

const brief = (d: { file: string; line: number; severity: string; code?: string; message: string }) => `${d.severity} ${d.code} ${d.file.slice(SPEC.length + 1)}:${d.line} ${d.message}`;

describe('stage findings', () => {
  it('only the validators declared for the current stage and run at it apply', () => {
    withRepo((r) => {
      const s = spec(r, 'analyze-artifacts');
      // convergence-pass is declared here too, but loom runs it at converge only.
      assert.deepEqual(stageValidatorNames(s), ['artifact-analysis-pass']);
      assert.deepEqual(stageValidatorNames({ definition: s.definition, stage: 'executing' }), ['task-state-closure', 'requirement-task-closure']);
      assert.deepEqual(stageValidatorNames({ definition: s.definition, stage: 'approved' }), []);
      assert.deepEqual(stageValidatorNames({ definition: s.definition, stage: null }), []);
      assert.deepEqual(stageValidatorNames({ definition: s.definition, stage: 'failed' }), []);
    });
  });

  it('findings become Problems on their file and line, with their severity, code and fix', () => {
    withRepo((r) => {
      const s = spec(r, 'analyze-artifacts', t1Drifted);
      const diagnostics = stageFindingDiagnostics(s);
      assert.deepEqual(diagnostics.map(brief), [
        'error finding:unrequested tasks/T1.md:5 T1 names behavior REQ-009-B01, which requirements.json does not declare (F-1, blocker)',
        "error finding:missing requirements.json:37 REQ-001-B02 is not in any task's behavior_ids (F-2, blocker)",
        'error finding:missing tasks/T1.md:3 T1 depends on T9, which has no task file (F-3)',
      ]);
      assert.deepEqual(
        diagnostics.map((d) => d.finding.fix),
        [
          { type: 'task-list', task: 'T1', file: 'tasks/T1.md', key: 'behavior_ids', op: 'remove', value: 'REQ-009-B01' },
          { type: 'task-list', task: 'T1', file: 'tasks/T1.md', key: 'behavior_ids', op: 'add', value: 'REQ-001-B02' },
          { type: 'task-list', task: 'T1', file: 'tasks/T1.md', key: 'depends_on', op: 'remove', value: 'T9' },
        ],
      );
      assert.deepEqual(
        diagnostics.map((d) => [d.finding.validator, d.finding.id, d.finding.overridable]),
        [
          ['artifact-analysis-pass', 'F-1', false],
          ['artifact-analysis-pass', 'F-2', false],
          ['artifact-analysis-pass', 'F-3', true],
        ],
      );
    });
  });

  it('applying every fix clears the findings', () => {
    withRepo((r) => {
      const s = spec(r, 'analyze-artifacts', t1Drifted);
      const file = `${SPEC}/tasks/T1.md`;
      let text = r.read(file);
      for (const d of stageFindingDiagnostics(s)) text = applyTextEdits(text, findingFixEdits(file, text, d.finding.fix!));
      r.write(file, text);
      assert.deepEqual(parseTaskFile(file, 'T1', text).task.behavior_ids, ['REQ-001-B01', 'REQ-001-B02']);
      assert.deepEqual(stageFindingDiagnostics(new LoomRepository(r.root).load().get(SPEC)!), []);
    });
  });

  it('at planning, planning-artifacts findings sit on traceability.json with their fix', () => {
    withRepo((r) => {
      const s = spec(r, 'planning', (x) => {
        const t = x.json(`${SPEC}/traceability.json`);
        t.requirements['REQ-001'].behaviors['REQ-001-B02'].tasks = [];
        x.write(`${SPEC}/traceability.json`, t);
      });
      const diagnostics = stageFindingDiagnostics(s);
      assert.deepEqual(diagnostics.map(brief), ['error finding:missing traceability.json:17 REQ-001-B02 maps to no task in traceability.json (PA-1)']);
      assert.deepEqual(
        diagnostics.map((d) => [d.finding.validator, d.finding.subject, d.finding.overridable, d.finding.fix]),
        [
          [
            'planning-artifacts',
            'REQ-001-B02',
            false,
            { type: 'traceability', file: 'traceability.json', change: { op: 'add-tasks', requirement: 'REQ-001', behavior: 'REQ-001-B02', tasks: ['T1'] } },
          ],
        ],
      );
    });
  });

  it("at executing, the closures' findings sit on the task file, the task's state and spec.md", () => {
    withRepo((r) => {
      const s = spec(r, 'executing', (x) => {
        x.write(`${SPEC}/task-states/T1.state.json`, { task_id: 'T1', status: 'reviewing', retry_count: 0 });
        x.write(`${SPEC}/tasks/T2.md`, taskText({ owns: ['src/logout.ts'], depends_on: ['T1'], requirements: [], behavior_ids: ['REQ-002-B01'] }, 'T2: Logout'));
      });
      const diagnostics = stageFindingDiagnostics(s);
      assert.deepEqual(diagnostics.map(brief), [
        // Tasks not run or not finished yet are work in progress: information, not errors.
        'info finding:partial task-states/T1.state.json:3 T1 is reviewing, not done (TS-1)',
        'info finding:missing tasks/T2.md:1 T2 has no task-states/T2.state.json (TS-2)',
        'error finding:missing spec.md:6 REQ-002 appears in spec.md but no task lists it in requirements (RT-1)',
      ]);
      assert.deepEqual(
        diagnostics.map((d) => d.finding.fix?.file),
        [undefined, undefined, 'tasks/T2.md'],
      );
    });
  });

  it('at executing, a failed or blocked task is an error; all unfinished tasks still block leaving the stage', () => {
    withRepo((r) => {
      const s = spec(r, 'executing', (x) => {
        x.write(`${SPEC}/task-states/T1.state.json`, { task_id: 'T1', status: 'failed', retry_count: 3 });
        x.write(`${SPEC}/task-states/T2.state.json`, { task_id: 'T2', status: 'blocked', retry_count: 1, blocker: 'needs the API key' });
      });
      assert.deepEqual(stageFindingDiagnostics(s).map(brief), [
        'error finding:partial task-states/T1.state.json:3 T1 is failed, not done (TS-1)',
        'error finding:partial task-states/T2.state.json:3 T2 is blocked, not done (blocker: needs the API key) (TS-2)',
      ]);
      const pending = spec(r, 'executing', (x) => x.write(`${SPEC}/task-states/T2.state.json`, { task_id: 'T2', status: 'pending', retry_count: 0 }));
      assert.equal(checkStage(pending).passed, false, 'work in progress still blocks');
    });
  });

  // Shown lower, never passed: loom's run --advance re-runs runAnalyzeArtifacts, which reads no override.
  it('an overridden error is a warning with who and why, and still blocks; blockers cannot be overridden', () => {
    withRepo((r) => {
      spec(r, 'analyze-artifacts', t1Drifted);
      writeArtifactAnalysis(load(r), { now: NOW, override: { findingId: 'F-3', reason: 'T9 lives in another spec', by: 'ana (Loom: Override Finding)' } });
      const diagnostics = stageFindingDiagnostics(new LoomRepository(r.root).load().get(SPEC)!);
      const f3 = diagnostics.find((d) => d.finding.id === 'F-3')!;
      assert.equal(f3.severity, 'warning');
      assert.equal(
        f3.message,
        "T1 depends on T9, which has no task file (F-3, overridden by ana (Loom: Override Finding): T9 lives in another spec; loom's run --advance re-runs the analysis and reads no override, so it still blocks until the artifact is fixed)",
      );
      assert.deepEqual([f3.finding.overridable, f3.finding.overriddenBecause, f3.finding.overriddenBy], [false, 'T9 lives in another spec', 'ana (Loom: Override Finding)']);
      const pass = artifactAnalysisPass(load(r));
      assert.deepEqual(pass.overridden, new Map([['F-3', { reason: 'T9 lives in another spec', by: 'ana (Loom: Override Finding)' }]]));
      assert.equal(pass.passed, false);
      const checked = checkStage(new LoomRepository(r.root).load().get(SPEC)!, NOW);
      assert.deepEqual([checked.passed, checked.validators[0].problems.some((p) => p.startsWith('F-3 ') && p.includes('does not read overrides'))], [false, true]);
    });
  });

  it('a spec at a stage without validators has no findings, and none are run', () => {
    withRepo((r) => {
      const s = spec(r, 'approved', t1Drifted);
      assert.deepEqual(stageFindingDiagnostics(s), []);
    });
  });

  it('a finding about a file the spec does not have is shown on pipeline.state.json', () => {
    withRepo((r) => {
      const s = spec(r, 'analyze-artifacts', (x) => rmSync(x.path(`${SPEC}/plan.md`)));
      assert.deepEqual(stageFindingDiagnostics(s).map(brief), ['error finding:missing pipeline.state.json:1 plan.md does not exist (F-1, blocker)']);
    });
  });

  it("the spec's own diagnostic that says the same on the same line gives way to the finding", () => {
    withRepo((r) => {
      const s = spec(r, 'analyze-artifacts', t1Drifted);
      const base = specDiagnostics(s);
      assert.deepEqual(
        base.filter((d) => d.file.endsWith('tasks/T1.md')).map((d) => d.code),
        ['unknown-dependency', 'unknown-behavior'],
      );
      const merged = mergeFindingDiagnostics(base, stageFindingDiagnostics(s));
      assert.deepEqual(
        merged.filter((d) => d.file.endsWith('tasks/T1.md')).map((d) => d.code),
        ['finding:unrequested', 'finding:missing'],
      );
      assert.equal(merged.length, base.length - 2 + 3);
    });
  });
});

describe('checkStage', () => {
  it('writes artifact-analysis.json as `analyze` does and counts what blocks', () => {
    withRepo((r) => {
      const s = spec(r, 'analyze-artifacts', t1Drifted);
      const result = checkStage(s, NOW);
      assert.deepEqual(result, {
        stage: 'analyze-artifacts',
        passed: false,
        blocking: 3,
        validators: [
          {
            name: 'artifact-analysis-pass',
            passed: false,
            blocking: 3,
            report: 'artifact-analysis.json',
            written: true,
            problems: [
              'F-1 T1 names behavior REQ-009-B01, which requirements.json does not declare',
              "F-2 REQ-001-B02 is not in any task's behavior_ids",
              'F-3 T1 depends on T9, which has no task file',
            ],
          },
        ],
      });
      assert.equal(r.json(`${SPEC}/artifact-analysis.json`).status, 'blocked');
      assert.equal(checkStage(new LoomRepository(r.root).load().get(SPEC)!, '2026-11-30T00:00:00.000Z').validators[0].written, false, 'an unchanged analysis is not rewritten');
    });
  });

  it('passes a clean spec; at converge it writes the report and appends tasks as `converge` does', () => {
    withRepo((r) => {
      assert.deepEqual(checkStage(spec(r, 'analyze-artifacts'), NOW).passed, true);
      r.write(`${SPEC}/pipeline.state.json`, state('converge'));
      for (const id of ['T1', 'T2']) r.write(`${SPEC}/task-states/${id}.state.json`, { task_id: id, status: 'done', retry_count: 0 });
      const result = checkStage(new LoomRepository(r.root).load().get(SPEC)!, NOW);
      assert.equal(result.passed, false);
      assert.deepEqual(
        result.validators.map((v) => [v.name, v.report, v.appended]),
        [['convergence-pass', 'convergence-report.json', ['T3', 'T4']]],
      );
      assert.equal(r.json(`${SPEC}/convergence-report.json`).status, 'needs_another_round');
    });
  });

  it('validators without findings count their problems; a held run lock refuses the write', () => {
    withRepo((r) => {
      const s = spec(r, 'executing');
      const result = checkStage(s, NOW);
      assert.deepEqual(
        result.validators.map((v) => [v.name, v.blocking]),
        [
          ['task-state-closure', 2],
          ['requirement-task-closure', 0],
        ],
      );
      r.write(`${SPEC}/pipeline.state.json`, state('analyze-artifacts'));
      r.write(`${SPEC}/.loom-run.lock`, JSON.stringify({ pid: process.ppid, started_at: NOW }));
      assert.throws(
        () => checkStage(new LoomRepository(r.root).load().get(SPEC)!, NOW),
        (e: unknown) => e instanceof SpecLockedError,
      );
    });
  });
});
