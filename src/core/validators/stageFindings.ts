import type { Diagnostic, Severity } from '../diagnostics/diagnostic';
import type { Finding } from '../files/findings';
import { PIPELINE_STATE_FILE } from '../files/pipelineState';
import { stageOf, type PipelineDefinition } from '../pipeline/pipelineDefinition';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { ARTIFACT_ANALYSIS_PASS } from './artifactAnalysis';
import type { FindingFix } from './findingFix';
import type { ValidatorResult } from './validatorResult';
import { VALIDATORS } from './validators';
import { t } from '../messages';

/** What the stage findings need of a spec: its files, its pipeline and where it stands. */
export interface StagedSpec {
  snapshot: SpecSnapshot;
  definition: PipelineDefinition;
  stage: string | null;
}

/**
 * The validators that check leaving the spec's current stage: those the workflow declares for
 * its step (with the implicit ones loom adds), each only at the stage loom runs it at, as the
 * `validatorPasses` guard decides. None for a failed spec or an unknown stage.
 */
export function stageValidatorNames(spec: Pick<StagedSpec, 'definition' | 'stage'>): string[] {
  if (spec.stage === null) return [];
  const stage = stageOf(spec.definition, spec.stage);
  return (stage?.validators ?? []).filter((name) => VALIDATORS.get(name)?.stage === spec.stage);
}

/**
 * What Check Stage runs: the declared validators, and the stage's own deterministic work even when
 * the workflow does not declare it (loom's sample workflow leaves artifact-analysis-pass out of
 * analyze-artifacts, yet the approved gate needs the artifact-analysis.json it writes).
 */
export function stageCheckValidatorNames(spec: Pick<StagedSpec, 'definition' | 'stage'>): string[] {
  if (spec.stage === null || !stageOf(spec.definition, spec.stage)) return [];
  const own = [...VALIDATORS].filter(([, v]) => v.stage === spec.stage).map(([name]) => name);
  return [...new Set([...stageValidatorNames(spec), ...own])];
}

/** Runs the validators of the spec's current stage; nothing is written. */
export function runStageValidators(spec: StagedSpec): ValidatorResult[] {
  return stageValidatorNames(spec).map((name) => VALIDATORS.get(name)!.check(spec.snapshot));
}

/** What a Problems entry made from a finding carries, so a quick fix or an override finds it again. */
export interface FindingRef {
  validator: string;
  id: string;
  severity: Finding['severity'];
  message: string;
  /** An error finding of artifact-analysis-pass not yet overridden: the user may accept it with a reason (it still blocks). */
  overridable: boolean;
  /** The reason recorded when the finding was overridden. */
  overriddenBecause?: string;
  /** Who recorded the override, when known. */
  overriddenBy?: string;
  fix?: FindingFix;
  /** The id the finding is about, most specific first: its behavior, else its task, else its requirement. */
  subject?: string;
}

export interface FindingDiagnostic extends Diagnostic {
  finding: FindingRef;
}

const SEVERITY: Readonly<Record<Finding['severity'], Severity>> = { blocker: 'error', error: 'error', warning: 'warning', info: 'info' };

/**
 * The findings of the current stage's validators as Problems entries, on the file and line each
 * concerns (`finding:<kind>`). An overridden error is a warning, with who accepted it and why: it
 * still blocks, since loom's run --advance re-runs the analysis and reads no override. A finding that
 * names a file the spec does not have (yet) is shown on pipeline.state.json when there is one.
 * Findings are computed afresh, so the reports on disk (artifact-analysis.json,
 * convergence-report.json) never add a second entry for the same finding.
 */
export function stageFindingDiagnostics(spec: StagedSpec, results: readonly ValidatorResult[] = runStageValidators(spec)): FindingDiagnostic[] {
  const s = spec.snapshot;
  const out: FindingDiagnostic[] = [];
  for (const r of results) {
    for (const f of r.findings ?? []) {
      const override = r.overridden?.get(f.id);
      const reason = override?.reason;
      const located = f.location?.file ?? (f.artifact && !f.artifact.endsWith('/') ? f.artifact : undefined);
      const exists = located !== undefined && !located.split('/').includes('..') && s.files.has(located);
      const file = exists ? located : s.files.has(PIPELINE_STATE_FILE) ? PIPELINE_STATE_FILE : (located ?? PIPELINE_STATE_FILE);
      const line = exists ? (f.location?.line ?? 1) : 1;
      const message =
        override !== undefined
          ? override.by
            ? t('validator.finding.overriddenBy', { message: f.message, id: f.id, reason: override.reason, by: override.by })
            : t('validator.finding.overridden', { message: f.message, id: f.id, reason: override.reason })
          : t(f.severity === 'blocker' ? 'validator.finding.blocker' : 'validator.finding.entry', { message: f.message, id: f.id });
      const fix = r.fixes?.get(f.id);
      const subject = f.behavior_id ?? f.task_id ?? f.requirement_id;
      out.push({
        file: `${s.specDir}/${file}`,
        line,
        column: 1,
        severity: r.inProgress?.has(f.id) ? 'info' : override !== undefined ? 'warning' : SEVERITY[f.severity],
        message,
        code: `finding:${f.kind}`,
        finding: {
          validator: r.name,
          id: f.id,
          severity: f.severity,
          message: f.message,
          overridable: r.name === ARTIFACT_ANALYSIS_PASS && f.severity === 'error' && reason === undefined,
          ...(reason !== undefined ? { overriddenBecause: reason } : {}),
          ...(override?.by ? { overriddenBy: override.by } : {}),
          ...(fix ? { fix } : {}),
          ...(subject ? { subject } : {}),
        },
      });
    }
  }
  return out;
}

/** The spec's own diagnostics that say what a finding says, on the same line; the finding replaces them. */
const SAID_BY_FINDINGS = new Set([
  'unknown-behavior',
  'unknown-dependency',
  'dependency-cycle',
  'owns-conflict',
  'behavior-without-task',
  'trace-unknown-task',
  'trace-unknown-behavior',
  'trace-unknown-requirement',
]);

/**
 * The spec's diagnostics with the stage's findings merged in: a diagnostic the core always gives
 * (an unknown behavior on a task's behavior_ids line, a dependency cycle …) gives way to the
 * finding on the same file and line that names the same id, so the Problems panel shows it once,
 * with the finding's severity and quick fix.
 */
export function mergeFindingDiagnostics(base: readonly Diagnostic[], findings: readonly FindingDiagnostic[]): Diagnostic[] {
  if (findings.length === 0) return [...base];
  const byPlace = new Map<string, FindingDiagnostic[]>();
  for (const f of findings) {
    const key = `${f.file}\u0000${f.line}`;
    byPlace.set(key, [...(byPlace.get(key) ?? []), f]);
  }
  const said = (d: Diagnostic) => {
    if (!d.code || !SAID_BY_FINDINGS.has(d.code)) return false;
    return (byPlace.get(`${d.file}\u0000${d.line}`) ?? []).some((f) => f.finding.subject !== undefined && mentions(d.message, f.finding.subject));
  };
  return [...base.filter((d) => !said(d)), ...findings];
}

const mentions = (text: string, id: string) => new RegExp(`(?<![\\w-])${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`).test(text);
