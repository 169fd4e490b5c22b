import { FAILED_STAGE } from '../../files/vocabulary';
import { t } from '../../messages';
import type { Answer } from '../../port/answer';
import type { SpecFile } from '../../store/specFiles';
import { ARTIFACT_ANALYSIS_PASS, writeArtifactAnalysis } from '../../validators/artifactAnalysis';
import { CONVERGENCE_PASS, MAX_CONVERGENCE_ROUNDS, writeConvergence } from '../../validators/convergence';
import { leavesForward } from '../chooseTransition';
import type { PipelineContext, PipelineEvent } from '../machineTypes';
import { stageOf, type PipelineDefinition } from '../pipelineDefinition';
import { hasRole } from '../stageRoles';

type Move = Extract<PipelineEvent, { type: 'ADVANCE' | 'APPROVE' }>;

/**
 * Which report loom's `run --advance` writes before it decides a move from `from`: the
 * artifact analysis at the stage that analyses, the convergence report at the stage that
 * converges, each only where the stage declares the validator, and only for a move forward (or
 * no way named). Undefined when none is due, or when the move carries the reports already
 * written (the actor sends it again after writing them; a preview writes none).
 */
export function stageReportDue(def: PipelineDefinition, from: string | null, event: PipelineEvent): 'analysis' | 'convergence' | undefined {
  if (event.type !== 'ADVANCE' && event.type !== 'APPROVE') return undefined;
  if (event.reportsDone || from === null || from === FAILED_STAGE) return undefined;
  if (!leavesForward(def, from, event.type === 'APPROVE' ? { approve: true } : { to: event.to })) return undefined;
  const validators = stageOf(def, from)?.validators ?? [];
  if (hasRole(def, from, 'analysis') && validators.includes(ARTIFACT_ANALYSIS_PASS)) return 'analysis';
  if (hasRole(def, from, 'convergence') && validators.includes(CONVERGENCE_PASS)) return 'convergence';
  return undefined;
}

/**
 * The stage's report, written through the state store with the move's `now`; then the spec's
 * files are followed again (the guards read the report) and the move is sent once more, marked
 * as having its reports, for the actor to decide. What a convergence round that did not
 * converge says goes with it, for a refusal to tell. A report that cannot be written (a corrupt
 * one is left untouched) is the request's error.
 */
export function writeStageReports(def: PipelineDefinition, context: PipelineContext, event: Move, from: string, self: { send: (event: PipelineEvent) => void }): void {
  const write = (files: readonly SpecFile[]) => context.store.writeReport(context.facts, files);
  let hint: string | undefined;
  try {
    if (stageReportDue(def, from, event) === 'analysis') writeArtifactAnalysis(context.facts, { now: event.now, write });
    else {
      const outcome = writeConvergence(context.facts, { now: event.now, write });
      const { status, round } = outcome.report;
      const tasks = outcome.appended.map((x) => x.id).join(', ');
      if (status !== 'converged')
        hint = outcome.escalate
          ? t('refusal.convergence.escalate', { round, max: MAX_CONVERGENCE_ROUNDS })
          : tasks
            ? t('refusal.convergence.anotherRoundTasks', { round, tasks })
            : t('refusal.convergence.anotherRound', { round });
    }
  } catch (error) {
    self.send({ type: 'ANSWERED', id: event.id, error });
    return;
  }
  context.followFiles?.();
  self.send({ ...event, reportsDone: hint ? { hint } : {} });
}

/** A refusal of a move whose reports were written first says what the convergence round found. */
export function withReportsHint(answer: Answer, event: PipelineEvent): Answer {
  const hint = (event.type === 'ADVANCE' || event.type === 'APPROVE') && event.reportsDone?.hint;
  return hint && answer.kind === 'refused' ? { ...answer, reasons: [...answer.reasons, hint] } : answer;
}
