import { stageDescription, t } from '../messages';
import type { PipelineDefinition, StageDefinition } from '../pipeline/pipelineDefinition';
import { stageOf } from '../pipeline/pipelineDefinition';
import { openThreadsOn, type OpenThreadNote } from '../review/openThreads';
import { outputExists } from '../specdir/specOverview';
import { featureOf } from '../specdir/specName';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { staleApprovals, staleDerivations } from '../specdir/staleness';

/** What a person is asked to confirm: the facts, before they are worded. */
export interface StepFacts {
  specDir: string;
  feature: string;
  /** What the step does: leave a stage (advance), pass its gate (approve), complete the pipeline, or run the tasks. */
  verb: 'advance' | 'approve' | 'complete' | 'runTasks' | 'adjustSteps' | 'startPipeline' | 'rewind';
  from: string;
  /** The stage the spec moves to (the same as `from` when the pipeline completes). */
  to: string;
  /** The outputs of the stage being left, each there or not. */
  outputs: { path: string; exists: boolean }[];
  /** The stage that follows, with its description. */
  next?: { stage: string; description?: string };
  /** What only a person can check (loom's confirmations, the schema's manual checks). */
  confirmations: string[];
  /** The files whose sha256 an approval records (a human-approval gate). */
  approvalFiles: string[];
  /** Outputs older than what they are derived from. */
  staleDerived: { output: string; input: string }[];
  /** The files changed since this stage was last approved: confirming approves it again. */
  reapproves: string[];
  /** Review threads on the stage's outputs that are still open. */
  openThreads: OpenThreadNote[];
  /** Run Tasks: where the run writes and what it sends (each a sentence). */
  scope?: string[];
  /** The kind of gate the stage is: a human-approval gate, or a stage a person confirms. */
  gate?: 'human-approval' | 'confirmation';
  /** Changing the steps: the steps from now on, those left out, and which of these a person must pass. */
  steps?: { from: string[]; leftOut: string[]; leftOutGates?: string[] };
}

/** The question as a person reads it: a title, the lines under it, and the button that says yes. */
export interface Question {
  title: string;
  lines: string[];
  ok: string;
}

/** The files an approval fingerprints, as loom's approve takes them (traceability.json and folders aside). */
export const approvalFileList = (stage: StageDefinition) => (stage.approvalRequires.length ? stage.approvalRequires : stage.outputs).filter((p) => !p.endsWith('/') && p !== 'traceability.json');

/** The facts of leaving `from` for `to` (or completing `from`), read off the spec's snapshot. */
export function stepFacts(def: PipelineDefinition, snapshot: SpecSnapshot, step: { from: string; to: string; approve: boolean; confirmations: string[] }): StepFacts {
  const stage = stageOf(def, step.from);
  const target = step.to !== step.from ? stageOf(def, step.to) : undefined;
  const files = stage ? [...new Set([...stage.outputs, ...stage.approvalRequires])] : [];
  const forward = def.transitions.some((x) => x.from === step.from && x.to === step.to && x.kind === 'forward');
  return {
    specDir: snapshot.specDir,
    feature: featureOf(snapshot.name),
    verb: step.to === step.from ? 'complete' : step.approve ? 'approve' : 'advance',
    from: step.from,
    to: step.to,
    outputs: (stage?.outputs ?? []).map((path) => ({ path, exists: outputExists(snapshot, path) })),
    ...(target ? { next: { stage: target.id, description: stageDescription(target.id, target.description) ?? target.description } } : {}),
    confirmations: step.confirmations,
    approvalFiles: stage?.humanApproval && forward ? approvalFileList(stage) : [],
    staleDerived: staleDerivations(snapshot, def, step.from).map((d) => ({ output: d.output, input: d.input })),
    reapproves: [
      ...new Set(
        staleApprovals(snapshot)
          .filter((a) => a.stage === step.from)
          .flatMap((a) => a.changed),
      ),
    ],
    openThreads: openThreadsOn(snapshot, files),
  };
}

/**
 * The question put to a person before a step, worded once for every surface (a dialog, VS Code's
 * tool confirmation, MCP elicitation): which spec, which stage and where to, what the stage
 * produced, what comes next, what they confirm by hand, what an approval records, and what is
 * stale or still open.
 */
export function questionOf(f: StepFacts): Question {
  const lines: string[] = [];
  switch (f.verb) {
    case 'runTasks':
      return { title: t('ask.runTasks.title', { feature: f.feature }), lines: [...(f.scope ?? [])], ok: t('ask.runTasks.ok') };
    case 'adjustSteps':
      return {
        title: t('ask.adjust.title', { specDir: f.specDir, stage: f.from }),
        lines: [
          t('ask.adjust.from', { steps: f.steps?.from.join(' → ') ?? '' }),
          f.steps?.leftOut.length ? t('ask.adjust.leftOut', { steps: f.steps.leftOut.join(', ') }) : t('ask.adjust.nothingLeftOut'),
        ],
        ok: t('ask.adjust.ok'),
      };
    case 'startPipeline':
      return { title: t('ask.start.title', { specDir: f.specDir }), lines: [t('ask.start.steps', { steps: f.steps?.from.join(' → ') ?? '' }), ...(f.scope ?? [])], ok: t('ask.start.ok') };
    default:
      break;
  }
  lines.push(`${f.specDir}: ${f.verb === 'complete' ? f.from : `${f.from} → ${f.to}`}`);
  lines.push(f.outputs.length ? t('ask.outputs', { stage: f.from, outputs: f.outputs.map((o) => `${o.path} ${o.exists ? '✓' : '✗'}`).join(', ') }) : t('ask.noOutputs', { stage: f.from }));
  lines.push(f.next ? (f.next.description ? t('ask.nextDescribed', { stage: f.next.stage, description: f.next.description }) : t('ask.next', { stage: f.next.stage })) : t('ask.nextCompletes'));
  for (const c of f.confirmations) lines.push(`• ${c}`);
  if (f.approvalFiles.length) lines.push(t('ask.approvalRecords', { files: f.approvalFiles.join(', ') }));
  for (const d of f.staleDerived) lines.push(`⚠ ${t('ask.staleDerived', { output: d.output, input: d.input })}`);
  if (f.reapproves.length) lines.push(`⚠ ${t('ask.reapproves', { stage: f.from, files: f.reapproves.join(', ') })}`);
  if (f.openThreads.length) lines.push(`⚠ ${t('ask.openThreads', { count: f.openThreads.length, places: f.openThreads.map((o) => o.place).join(', ') })}`);
  const title =
    f.verb === 'approve'
      ? t('ask.approve.title', { stage: f.from, feature: f.feature, to: f.to })
      : f.verb === 'complete'
        ? t('ask.complete.title', { stage: f.from, feature: f.feature })
        : t('ask.advance.title', { stage: f.from, feature: f.feature, to: f.to });
  return { title, lines, ok: f.verb === 'approve' ? t('ask.approve.ok') : t('ask.advance.ok') };
}
