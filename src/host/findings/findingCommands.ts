import * as vscode from 'vscode';
import type { Finding } from '../../core/files/findings';
import { analyzeArtifacts, ARTIFACT_ANALYSIS_PASS, openBlockingFindings, overrideAuthor, writeArtifactAnalysis } from '../../core/validators/artifactAnalysis';
import { request } from '../../core/port/request';
import { presentRefused } from '../commands/answers';
import { cancelled, createCommand, notify, type CommandArgs, type CommandContext, type CommandOutcome } from '../commands/createCommand';
import type { PromptPresets } from '../executing/promptPresets';
import { splitSpecName } from '../format';
import type { SpecEntry } from '../specs/specRegistry';

const feature = (e: SpecEntry) => splitSpecName(e.spec.snapshot.name).feature;

function refused(message: string): CommandOutcome {
  notify('warning', message);
  return { status: 'refused', message, reasons: [] };
}

const showProblems = { title: vscode.l10n.t('Show Problems'), run: () => void vscode.commands.executeCommand('workbench.actions.view.problems') };

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
    const message = vscode.l10n.t('{0}: the workflow declares no validators for {1}; nothing to check.', feature(e), stage);
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
    message = vscode.l10n.t('{0}: the checks of {1} pass ({2}).', feature(e), stage, names.join(', '));
    notify('info', message);
  } else {
    message = result.blocking === 1 ? vscode.l10n.t('{0}: one blocking finding at {1}.', feature(e), stage) : vscode.l10n.t('{0}: {1} blocking findings at {2}.', feature(e), result.blocking, stage);
    if (appended.length) message += ` ${vscode.l10n.t('Tasks appended for the next round: {0}.', appended.join(', '))}`;
    if (escalate) message += ` ${vscode.l10n.t('That was the last convergence round: fail the spec, or close the gaps by hand.')}`;
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
    if (!finding)
      return refused(vscode.l10n.t('{0}: {1} has no finding {2} any more; the findings changed. Run Loom: Check Stage and try again.', feature(e), ARTIFACT_ANALYSIS_PASS, args.findingId ?? ''));
    if (finding.severity === 'blocker') return refused(vscode.l10n.t('{0} is a blocker: fix it; blockers cannot be overridden.', finding.id));
    if (finding.severity !== 'error') return refused(vscode.l10n.t('{0} is a {1} and does not block: there is nothing to override.', finding.id, finding.severity));
  } else {
    const candidates = openBlockingFindings(report).filter((f) => f.severity === 'error');
    if (candidates.length === 0) {
      const message = vscode.l10n.t('{0} has no error finding to override (blockers cannot be overridden).', feature(e));
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
      { title: vscode.l10n.t('Loom: Override Finding'), placeHolder: vscode.l10n.t('Which error finding of {0} do you accept?', feature(e)), matchOnDetail: true },
    );
    finding = picked?.finding;
  }
  if (!finding) return cancelled;

  const preset = presets?.take('overrideReason');
  const reason =
    args.reason ??
    preset ??
    (await vscode.window.showInputBox({
      title: vscode.l10n.t('Override {0}', finding.id),
      prompt: vscode.l10n.t('Why do you accept "{0}"?', finding.message),
      placeHolder: vscode.l10n.t('The reason is recorded with the override in artifact-analysis.overrides.json'),
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('A reason is required: it is recorded with the override.')),
    }));
  if (reason === undefined) return cancelled;
  if (!reason.trim()) return refused(vscode.l10n.t('Overriding {0} needs a reason; nothing was recorded.', finding.id));

  writeArtifactAnalysis(e.spec.snapshot, { override: { findingId: finding.id, reason, by: overrideAuthor('Loom: Override Finding') } });
  ctx.log.component('overrideFinding').info(`${e.spec.snapshot.specDir}: ${finding.id} overridden (${finding.message}): ${reason.trim()}`);
  ctx.registry.reloadNow(e.dir);
  const message = vscode.l10n.t(
    "{0}: {1} overridden; the reason is recorded in artifact-analysis.overrides.json. It still blocks: loom's run --advance re-runs the analysis and reads no override, so fix the artifact.",
    feature(e),
    finding.id,
  );
  notify('info', message);
  return { status: 'done', specDir: e.dir, outcome: finding.id, message };
}

export function registerFindingCommands(ctx: CommandContext, presets?: PromptPresets): vscode.Disposable[] {
  const writes = { spec: true, writes: true };
  return [
    createCommand(ctx, 'loom.checkStage', { ...writes, placeHolder: vscode.l10n.t('Which spec should be checked?') }, (_a, e) => checkStageCommand(ctx, e!)),
    createCommand(ctx, 'loom.overrideFinding', { ...writes, placeHolder: vscode.l10n.t('Which spec has the finding?') }, (a, e) => overrideFinding(ctx, e!, a, presets)),
  ];
}
