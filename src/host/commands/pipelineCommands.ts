import * as vscode from 'vscode';
import { t, transitionDescription } from '../../core/port/messages';
import type { Answer } from '../../core/port/answer';
import { request } from '../../core/port/request';
import { localTime, splitSpecName } from '../format';
import type { SpecEntry } from '../specs/specRegistry';
import { askPerson, presentRefused } from './answers';
import { cancelled, createCommand, notify, type CommandArgs, type CommandContext, type CommandOutcome } from './createCommand';

const feature = (e: SpecEntry) => splitSpecName(e.spec.snapshot.name).feature;

/**
 * The answer of the spec's actor to a move, shown: the change, or its refusal with its remedies.
 * A question is asked, and the move sent again with the person's word, by `move` below.
 */
function shown(ctx: CommandContext, e: SpecEntry, a: Answer, component: string): CommandOutcome | undefined {
  if (a.kind === 'refused') return presentRefused(ctx, e, a, component);
  if (a.kind !== 'changed') return undefined;
  return { status: 'done', specDir: e.dir, from: a.from ?? undefined, to: a.to ?? undefined };
}

/**
 * Loom: Advance and Loom: Approve: the intent goes to the spec's actor, which chooses the way
 * (the next stage, or loom's return from converge), checks every rule and answers. Where it asks
 * for the person's word (an interactive stage, a gate), its question is shown here and the same
 * intent sent again with the word, for the step the person saw.
 */
async function advance(ctx: CommandContext, e: SpecEntry, args: CommandArgs, approve: boolean): Promise<CommandOutcome> {
  // loom 3 asks the caller to confirm it compressed the closed stage's context (compression_confirmed)
  // where the step's outputs name handoffs/<stage>.json. The extension's stage work (a task run,
  // each @loom command) starts from the spec's files, not from the closed stage's conversation,
  // so Advance, Approve, the dashboard and the chat's Advance button confirm it themselves.
  const intent = approve ? { type: 'approve' as const, compressionConfirmed: true, reason: args.reason } : { type: 'advance' as const, to: args.to, compressionConfirmed: true, reason: args.reason };
  const component = approve ? 'approve' : 'advance';
  // The person's word, from the palette, the Loom view or the dashboard: recorded with the approval.
  const approver = { by: 'person', through: 'palette' } as const;
  let answer = await request(e.spec, intent, args.confirm ? { confirm: true, approver } : {});
  if (answer.kind === 'needs-confirmation') {
    if (!(await askPerson(ctx, e, answer))) return cancelled;
    answer = await request(e.spec, intent, { confirm: answer.step, approver });
  }
  if (answer.kind === 'needs-confirmation') {
    // The spec moved while the person was asked: nothing was done, and they are told where it is now.
    const message = t('port.notConfirmed', { specDir: e.spec.snapshot.specDir, from: answer.step.from, to: answer.step.to, stage: e.spec.stage ?? '?' });
    notify('warning', message);
    return { status: 'refused', message, reasons: [], code: 'moved-meanwhile' };
  }
  const out = shown(ctx, e, answer, component)!;
  if (answer.kind !== 'changed') return out;
  const log = ctx.log.component(component);
  if ('alreadyComplete' in answer && answer.alreadyComplete) {
    log.info(`${e.spec.snapshot.specDir}: ${answer.from} was already complete`);
    notify('info', t('refusal.pipelineEnd', { specDir: feature(e), stage: answer.from ?? '', pipeline: e.spec.pipelineType }));
    return { status: 'refused', message: t('refusal.pipelineEnd', { specDir: e.spec.snapshot.specDir, stage: answer.from ?? '', pipeline: e.spec.pipelineType }), reasons: [] };
  }
  if ('complete' in answer && answer.complete) {
    log.info(`${e.spec.snapshot.specDir}: ${answer.from} completed`);
    notify('info', t('host.commands.completedPipelineDone', { feature: feature(e), from: answer.from ?? '' }));
    return out;
  }
  log.info(`${e.spec.snapshot.specDir}: ${answer.from} → ${answer.to}`);
  notify('info', t('host.commands.text', { feature: feature(e), from: answer.from ?? '', to: answer.to ?? '' }));
  return out;
}

async function askReason(prompt: string): Promise<string | undefined> {
  return vscode.window.showInputBox({
    prompt,
    placeHolder: t('host.commands.reasonRecordedStageHistory'),
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() ? undefined : t('host.commands.reasonRequired')),
  });
}

/** Loom: Mark Failed: the reason, then the actor's answer. */
async function markFailed(ctx: CommandContext, e: SpecEntry, args: CommandArgs): Promise<CommandOutcome> {
  const reason = args.reason?.trim() || (await askReason(t('host.commands.whyDoesFailAt', { feature: feature(e), stage: e.spec.stage ?? '?' })))?.trim();
  if (!reason) return cancelled;
  const answer = await request(e.spec, { type: 'fail', reason });
  const out = shown(ctx, e, answer, 'fail')!;
  if (answer.kind !== 'changed') return out;
  ctx.log.component('fail').info(`${e.spec.snapshot.specDir}: ${answer.from} → failed (${reason})`);
  notify('info', t('host.commands.markedFailedAtUseLoom', { feature: feature(e), from: answer.from ?? '' }));
  return out;
}

/** Loom: Recover: the stage to restart from (each shown ready or blocked, as the view shows it), the reason, then the actor's answer. */
async function recover(ctx: CommandContext, e: SpecEntry, args: CommandArgs): Promise<CommandOutcome> {
  let to = args.to;
  if (!to) {
    const ways = e.spec.next().filter((c) => c.kind === 'recover');
    const targets = ways.length ? ways : e.spec.definition.recoveryTargets.map((id) => ({ to: id, ready: true, unmet: [] as string[], description: undefined }));
    const picked = await vscode.window.showQuickPick(
      targets.map((c) => ({
        label: `$(debug-restart) ${c.to}`,
        description: c.ready ? t('host.commands.ready') : t('host.commands.blocked'),
        detail: c.ready ? transitionDescription(e.spec.stage ?? '', c.to, c.description) : c.unmet.join('; '),
        to: c.to,
      })),
      { title: t('host.commands.loomRecover'), placeHolder: t('host.commands.whichStageShouldRestartFrom', { feature: feature(e) }) },
    );
    to = picked?.to;
  }
  if (!to) return cancelled;
  const reason = args.reason?.trim() || (await askReason(t('host.commands.whyDoesRestartFrom', { feature: feature(e), to })))?.trim();
  if (!reason) return cancelled;
  const answer = await request(e.spec, { type: 'recover', to, reason });
  const out = shown(ctx, e, answer, 'recover')!;
  if (answer.kind !== 'changed') return out;
  ctx.log.component('recover').info(`${e.spec.snapshot.specDir}: failed → ${answer.to} (${reason})`);
  notify('info', t('host.commands.failed', { feature: feature(e), to: answer.to ?? '' }));
  return out;
}

/**
 * Loom: Approve Again. A gate already passed whose approved files changed since blocks advancing
 * (loom: "re-review and pass the gate again"). After the user has looked at the changed files and
 * confirms, the gate's files are fingerprinted anew in its stale history entries; the spec
 * stays at its stage.
 */
async function reapprove(ctx: CommandContext, e: SpecEntry, args: CommandArgs): Promise<CommandOutcome> {
  const stale = e.spec.staleApprovals();
  let chosen = args.approvalStage ? stale.find((a) => a.stage === args.approvalStage) : stale.length === 1 ? stale[0] : undefined;
  if (!chosen && !args.approvalStage && stale.length > 1) {
    const picked = await vscode.window.showQuickPick(
      stale.map((a) => ({
        label: `$(warning) ${a.stage}`,
        description: t('host.commands.approvedAt', { localTime: localTime(a.approvedAt) }),
        detail: t('host.commands.changedSince', { changed: a.changed.join(', ') }),
        approval: a,
      })),
      { title: t('host.commands.loomApproveAgain'), placeHolder: t('host.commands.whichApprovalShouldRenewed', { feature: feature(e) }) },
    );
    chosen = picked?.approval;
    if (!chosen) return cancelled;
  }
  // The person reviews what changed before the approval is renewed; with nothing stale (or a
  // stage that is not), the actor says so.
  if (chosen && !args.confirm) {
    const title = t('host.commands.approveAgain2', { stage: chosen.stage, feature: feature(e) });
    const detail = [
      t('host.commands.changedSinceApproval', { localTime: localTime(chosen.approvedAt), changed: chosen.changed.join(', ') }),
      t('host.commands.newSha256ApprovedFilesRecorded', { feature: feature(e), stage: e.spec.stage ?? '?' }),
    ];
    const ok = t('host.commands.approveAgain3');
    const open = t('host.commands.openChangedFiles');
    let choice: string | undefined;
    if (ctx.config.confirmation === 'quickPick') {
      const picked = await vscode.window.showQuickPick(
        [
          { label: `$(check) ${ok}`, detail: detail.join('  '), id: ok },
          { label: `$(go-to-file) ${open}`, id: open },
          { label: `$(close) ${t('host.commands.cancel')}`, id: '' },
        ],
        { title, placeHolder: title, ignoreFocusOut: true },
      );
      choice = picked?.id;
    } else {
      choice = await vscode.window.showWarningMessage(title, { modal: true, detail: detail.join('\n') }, ok, open);
    }
    if (choice === open) {
      // Review first: the files open, nothing is recorded until the user approves.
      for (const file of chosen.changed.filter((f) => !f.endsWith('/') && e.spec.snapshot.files.has(f))) {
        await vscode.window.showTextDocument(vscode.Uri.joinPath(e.uri, ...file.split('/')), { preview: false });
      }
      return cancelled;
    }
    if (choice !== ok) return cancelled;
  }
  const answer = await request(e.spec, { type: 'reapprove', stage: chosen?.stage ?? args.approvalStage, reason: args.reason });
  if (answer.kind === 'refused' && answer.code === 'no-stale-approval') {
    notify('info', t('host.commands.noApprovalStaleNothingApprove', { feature: feature(e) }));
    return { status: 'refused', message: answer.message, reasons: [], code: answer.code };
  }
  const out = shown(ctx, e, answer, 'reapprove')!;
  if (answer.kind !== 'changed') return out;
  const { reapproved } = answer;
  ctx.log.component('reapprove').info(`${e.spec.snapshot.specDir}: ${reapproved.stage} approved again (${reapproved.changed.join(', ')} had changed)`);
  notify('info', t('host.commands.approvedAgainSpecStaysAt', { feature: feature(e), stage: reapproved.stage, current_stage: answer.state?.current_stage ?? answer.to ?? '' }));
  return { status: 'done', specDir: e.dir, from: reapproved.stage, to: answer.state?.current_stage ?? answer.to ?? undefined };
}

export function registerPipelineCommands(ctx: CommandContext): vscode.Disposable[] {
  const writes = { spec: true, writes: true };
  return [
    createCommand(ctx, 'loom.advance', { ...writes, placeHolder: t('host.commands.whichSpecShouldAdvance') }, (a, e) => advance(ctx, e!, a, false)),
    createCommand(ctx, 'loom.approve', { ...writes, placeHolder: t('host.commands.whichSpecShouldApproved') }, (a, e) => advance(ctx, e!, a, true)),
    createCommand(ctx, 'loom.markFailed', { ...writes, placeHolder: t('host.commands.whichSpecFailed') }, (a, e) => markFailed(ctx, e!, a)),
    createCommand(ctx, 'loom.recover', { ...writes, placeHolder: t('host.commands.whichSpecShouldRecover') }, (a, e) => recover(ctx, e!, a)),
    createCommand(ctx, 'loom.reapprove', { ...writes, placeHolder: t('host.commands.whichSpecSApprovalShould') }, (a, e) => reapprove(ctx, e!, a)),
  ];
}
