import { z } from 'zod';
import {
  convergenceRound,
  detailExpansionPass,
  planningArtifacts,
  planOverviewFindings,
  SpecLines,
  blockingFindings,
  blockingProblem,
  overrideFor,
  verificationArtifacts,
  type ValidatorResult,
} from '../../core/port/validators';
import { planTemplateProblems, OMISSION_HUNTER_FILE } from '../../core/port/tools';
import { request, type Answer } from '../../core/port/request';
import type { SpecPipeline } from '../../core/port/specs';
import { planTaskBatches, taskDependencyDiagnostics, taskOwnershipDiagnostics } from '../../core/port/reports';
import { ARTIFACT_ANALYSIS_FILE, CONVERGENCE_REPORT_FILE } from '../../core/port/files';
import { t } from '../../core/port/messages';
import { ToolRefusal } from '../results';
import { refusalOf } from '../answers';
import { specOf } from '../specAccess';
import { defineTool } from '../tool';

/** The report the spec's actor wrote for the tool, or the tool's refusal. */
function written<T extends 'analyzeArtifacts' | 'converge' | 'huntOmissions'>(answer: Answer<T>, spec: SpecPipeline, tool: string) {
  if (answer.kind !== 'changed') throw refusalOf(answer as never, spec, tool);
  return answer;
}

const specInput = z.object({ spec_dir: z.string().optional().describe('Spec directory (optional if attached)') });

/** A validator's verdict with loom's keys: ok, errors (what blocks), warnings, and our located findings. */
const verdict = (r: ValidatorResult) => {
  const findings = r.findings ?? [];
  const warnings = findings.filter((f) => f.severity === 'warning' || f.severity === 'info').map((f) => f.message);
  return { ok: r.passed, validator: r.name, errors: r.problems, warnings, findings };
};

export const detailExpansionCheck = defineTool({
  name: 'loom_detail_expansion_check',
  group: 'pipeline',
  description:
    'detail-expansion: every required category of every requirement has a behavior, every behavior a test_plan, and nothing is left requires-clarification (requirements.json). Writes nothing.',
  input: specInput,
  writes: [],
  run: (args, ctx) => verdict(detailExpansionPass(specOf(ctx, args.spec_dir).spec.snapshot)),
});

export const validatePlan = defineTool({
  name: 'loom_validate_plan',
  group: 'pipeline',
  description:
    'planning: plan.md, tasks/TN.md, traceability.json, the requirement and behavior to task mapping, the dependency graph and owns conflicts. Use before asking the user to approve the plan. Writes nothing.',
  input: specInput,
  writes: [],
  run: (args, ctx) => {
    const { snapshot } = specOf(ctx, args.spec_dir).spec;
    const tasks = [...snapshot.tasks.values()];
    const graph = [...taskOwnershipDiagnostics(tasks), ...taskDependencyDiagnostics(tasks, planTaskBatches(tasks))];
    const planning = verdict(planningArtifacts(snapshot));
    const graphErrors = graph.filter((d) => d.severity === 'error').map((d) => `${d.file}:${d.line}: ${d.message}`);
    // validate-plan.mjs fails on a task file the task overview leaves out; the planning gate only shows it.
    const lines = new SpecLines(snapshot);
    const overview = planOverviewFindings(snapshot, lines, 'error').map((f) => f.message);
    // The rest of validate-plan.mjs: placeholders, the task files' sections and frontmatter.
    const template = planTemplateProblems(snapshot, lines);
    return {
      ...planning,
      ok: planning.ok && graphErrors.length === 0 && overview.length === 0 && template.errors.length === 0,
      errors: [...planning.errors, ...overview, ...template.errors, ...graphErrors],
      warnings: [...planning.warnings.filter((w) => !overview.includes(w)), ...template.warnings, ...graph.filter((d) => d.severity !== 'error').map((d) => `${d.file}:${d.line}: ${d.message}`)],
      plan_path: `${snapshot.specDir}/plan.md`,
      tasks_dir: `${snapshot.specDir}/tasks`,
      task_files: tasks.map((t) => t.file),
    };
  },
});

export const analyzeArtifacts = defineTool({
  name: 'loom_analyze_artifacts',
  group: 'pipeline',
  description:
    'analyze-artifacts: the cross-artifact analysis of spec, requirements, plan, tasks and traceability; writes artifact-analysis.json. A blocker or an error blocks the approved gate, as loom decides (an override recorded by the extension changes only how a finding is shown).',
  input: specInput,
  writes: [ARTIFACT_ANALYSIS_FILE],
  run: async (args, ctx) => {
    const { spec } = specOf(ctx, args.spec_dir);
    const { report, written: wrote } = written(await request(spec, { type: 'analyzeArtifacts' }, { now: ctx.now() }), spec, 'loom_analyze_artifacts');
    // As loom's runAnalyzeArtifacts: every blocker and error fails, overridden or not (loom reads no override).
    const open = blockingFindings(report);
    return {
      ok: open.length === 0,
      error: null,
      errors: open.map((f) => blockingProblem(f, overrideFor(report, f))),
      report,
      path: `${spec.snapshot.specDir}/${ARTIFACT_ANALYSIS_FILE}`,
      written: wrote,
    };
  },
});

export const converge = defineTool({
  name: 'loom_converge',
  group: 'pipeline',
  description:
    'converge: classifies every behavior as covered, missing, partial, contradicts or unrequested; writes convergence-report.json and, when another round is needed, appends the tasks for the gaps.',
  input: z.object({
    spec_dir: z.string().optional().describe('Spec directory (optional if attached)'),
    round: z.number().int().positive().optional().describe('The round you expect (default: the next one)'),
  }),
  writes: [CONVERGENCE_REPORT_FILE, 'tasks/TN.md (appended tasks)', 'plan.md'],
  run: async (args, ctx) => {
    const { spec } = specOf(ctx, args.spec_dir);
    const answer = await request(spec, { type: 'converge', ...(args.round !== undefined ? { round: args.round } : {}) }, { now: ctx.now() });
    // The actor refuses a round that is not the next one (the agent lost count): the hint names it.
    if (answer.kind === 'refused' && answer.code === 'wrong-round')
      throw new ToolRefusal('wrong-round', answer.message, t('mcp.converge.wrongRoundHint', { next: convergenceRound(spec.snapshot) + 1 }));
    const { outcome } = written(answer, spec, 'loom_converge');
    const { report } = outcome;
    return {
      ok: report.status === 'converged',
      error: null,
      errors: report.findings.filter((f) => f.severity === 'blocker').map((f) => `${f.id} ${f.message}`),
      report,
      appended_tasks: outcome.appended.map((t) => t.id),
      escalate: outcome.escalate,
    };
  },
});

export const verifyArtifacts = defineTool({
  name: 'loom_verify_artifacts',
  group: 'pipeline',
  description: 'verification: test-report.md, verify-report.md, requirements.json, traceability.json, placeholders in progress.md and evidence references. Writes nothing.',
  input: specInput,
  writes: [],
  run: (args, ctx) => {
    const { snapshot } = specOf(ctx, args.spec_dir).spec;
    return { ...verdict(verificationArtifacts(snapshot)), spec_dir: snapshot.specDir };
  },
});

export const omissionHunt = defineTool({
  name: 'loom_omission_hunt',
  group: 'pipeline',
  description:
    'converge: the adversarial review of what is missing: every behavior’s tests and evidence exist; forbidden-behavior, concurrency, atomicity and observability behaviors are flagged for a person. Writes findings/omission-hunter.json; a blocker sends the spec back to converge.',
  input: specInput,
  writes: [OMISSION_HUNTER_FILE],
  run: async (args, ctx) => {
    const { spec } = specOf(ctx, args.spec_dir);
    const { report } = written(await request(spec, { type: 'huntOmissions' }, { now: ctx.now() }), spec, 'loom_omission_hunt');
    const label = (severity: string) => (severity === 'blocker' ? 'ERROR' : severity === 'info' ? 'INFO' : 'WARN');
    return {
      ok: report.blocker_count === 0,
      error: null,
      errors: report.findings.map((f) => `${label(f.severity)} ${f.id} [${f.kind}] ${f.message}`),
      report,
      path: `${spec.snapshot.specDir}/${OMISSION_HUNTER_FILE}`,
    };
  },
});
