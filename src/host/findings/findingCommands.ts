import * as vscode from 'vscode';
import type { Finding } from '../../core/port/files';
import { analyzeArtifacts, ARTIFACT_ANALYSIS_PASS, openBlockingFindings, overrideAuthor } from '../../core/port/validators';
import { request } from '../../core/port/request';
import { presentRefused } from '../commands/answers';
import { cancelled, createCommand, notify, type CommandArgs, type CommandContext, type CommandOutcome } from '../commands/createCommand';
import type { PromptPresets } from '../executing/promptPresets';
import { splitSpecName } from '../format';
import type { SpecEntry } from '../specs/specRegistry';
import { t } from '../../core/port/messages';

const feature = (e: SpecEntry) => splitSpecName(e.spec.snapshot.name).feature;

function refused(message: string): CommandOutcome {
  notify('warning', message);
  return { status: 'refused', message, reasons: [] };
}

// Worded when shown, not when the bundle loads: the catalog is made on its first lookup.
const showProblems = {
  get title() {
    return t('host.findings.showProblems');
  },
  run: () => void vscode.commands.executeCommand('workbench.actions.view.problems'),
};

/**
 * Loom: Check Stage: the validators of the spec's current stage, run as the CLI runs them
 * (artifact-analysis-pass writes artifact-analysis.json, convergence-pass writes
 * convergence-report.json and appends tasks for its gaps), then the outcome in one message.
 */
async function checkStageCommand(ctx: CommandContext, e: SpecEntry): Promise<CommandOutcome> {
  const answer = await request(e.spec, { type: 'checkStage' });
  if (answer.kind === 'refused') return presentRefused(ctx, e, answer, 'checkStage');
  if (answer.kind !== 'changed') return { status: 'failed', message: 'Check Stage was not answered' };
  const result = answer.check;
  const stage = result.stage ?? '?';
  const names = result.validators.map((v) => v.name);
  if (names.length === 0) {
    const message = t('host.findings.workflowDeclaresNoValidatorsNothing', { feature: feature(e), stage });
    notify('info', message);
    return { status: 'done', specDir: e.dir, outcome: 'none', message };
  }
  const log = ctx.log.component('checkStage');
  log.info(
    `${e.spec.snapshot.specDir} at ${stage}: ${result.validators.map((v) => `${v.name} ${v.passed ? 'passed' : `failed (${v.blocking} blocking)`}${v.report && v.written ? `, wrote ${v.report}` : ''}`).join('; ')}`,
  );
  for (const v of result.validators) for (const p of v.problems) log.info(`  ${v.name}: ${p}`);
  const appended = result.validators.flatMap((v) => v.appended ?? []);
  const escalate = result.validators.some((v) => v.escalate);
  let message: string;
  if (result.passed) {
    message = t('host.findings.checksPass', { feature: feature(e), stage, names: names.join(', ') });
    notify('info', message);
  } else {
    message =
      result.blocking === 1
        ? t('host.findings.oneBlockingFindingAt', { feature: feature(e), stage })
        : t('host.findings.blockingFindingsAt', { feature: feature(e), blocking: result.blocking, stage });
    if (appended.length) message += ` ${t('host.findings.tasksAppendedNextRound', { appended: appended.join(', ') })}`;
    if (escalate) message += ` ${t('host.findings.wasLastConvergenceRoundFail')}`;
    notify('warning', message, [showProblems]);
  }
  return { status: 'done', specDir: e.dir, outcome: result.passed ? 'pass' : 'blocked', message };
}

/** The finding the arguments name, when the analysis still has it (ids are renumbered on every analysis). */
function namedFinding(findings: readonly Finding[], args: CommandArgs): Finding | undefined {
  const same = findings.find((f) => f.id === args.findingId && (args.message === undefined || f.message === args.message));
  return same ?? (args.message !== undefined ? findings.find((f) => f.message === args.message) : undefined);
}

/**
 * Loom: Override Finding: records that the user accepts one error finding of artifact-analysis-pass,
 * with their reason, in artifact-analysis.overrides.json as `loom-vscode analyze --override ID
 * --reason R` records it. It changes only how the finding is shown: loom's run --advance re-runs
 * the analysis and reads no override, so the gate still refuses until the artifact is fixed.
 * From a quick fix the finding is given; from the palette it is picked.
 */
async function overrideFinding(ctx: CommandContext, e: SpecEntry, args: CommandArgs, presets: PromptPresets | undefined): Promise<CommandOutcome> {
  const report = analyzeArtifacts(e.spec.snapshot);
  let finding: Finding | undefined;
  if (args.findingId !== undefined || args.message !== undefined) {
    finding = namedFinding(report.findings, args);
    if (!finding) return refused(t('host.findings.hasNoFindingAnyMore', { feature: feature(e), ARTIFACT_ANALYSIS_PASS, findingId: args.findingId ?? '' }));
    if (finding.severity === 'blocker') return refused(t('host.findings.blockerFixBlockersCannotOverridden', { id: finding.id }));
    if (finding.severity !== 'error') return refused(t('host.findings.doesNotBlockThereNothing', { id: finding.id, severity: finding.severity }));
  } else {
    const candidates = openBlockingFindings(report).filter((f) => f.severity === 'error');
    if (candidates.length === 0) {
      const message = t('host.findings.hasNoErrorFindingOverride', { feature: feature(e) });
      notify('info', message);
      return { status: 'refused', message, reasons: [] };
    }
    const picked = await vscode.window.showQuickPick(
      candidates.map((f) => ({
        label: f.id,
        description: [f.kind, f.location?.file].filter(Boolean).join(' · '),
        detail: f.message,
        finding: f,
      })),
      { title: t('host.findings.loomOverrideFinding'), placeHolder: t('host.findings.whichErrorFindingDoYou', { feature: feature(e) }), matchOnDetail: true },
    );
    finding = picked?.finding;
  }
  if (!finding) return cancelled;

  const preset = presets?.take('overrideReason');
  const reason =
    args.reason ??
    preset ??
    (await vscode.window.showInputBox({
      title: t('host.findings.override', { id: finding.id }),
      prompt: t('host.findings.whyDoYouAccept', { message: finding.message }),
      placeHolder: t('host.findings.reasonRecordedOverrideArtifactAnalysis'),
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() ? undefined : t('host.findings.reasonRequiredRecordedOverride')),
    }));
  if (reason === undefined) return cancelled;
  if (!reason.trim()) return refused(t('host.findings.overridingNeedsReasonNothingWas', { id: finding.id }));

  const answer = await request(e.spec, { type: 'analyzeArtifacts', override: { findingId: finding.id, reason, by: overrideAuthor('Loom: Override Finding') } });
  if (answer.kind === 'refused') return presentRefused(ctx, e, answer, 'overrideFinding');
  ctx.log.component('overrideFinding').info(`${e.spec.snapshot.specDir}: ${finding.id} overridden (${finding.message}): ${reason.trim()}`);
  const message = t('host.findings.overriddenReasonRecordedArtifactAnalysis', { feature: feature(e), id: finding.id });
  notify('info', message);
  return { status: 'done', specDir: e.dir, outcome: finding.id, message };
}

export function registerFindingCommands(ctx: CommandContext, presets?: PromptPresets): vscode.Disposable[] {
  const writes = { spec: true, writes: true };
  return [
    createCommand(ctx, 'loom.checkStage', { ...writes, placeHolder: t('host.findings.whichSpecShouldChecked') }, (_a, e) => checkStageCommand(ctx, e!)),
    createCommand(ctx, 'loom.overrideFinding', { ...writes, placeHolder: t('host.findings.whichSpecHasFinding') }, (a, e) => overrideFinding(ctx, e!, a, presets)),
  ];
}
