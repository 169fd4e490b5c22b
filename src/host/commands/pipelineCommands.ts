import * as vscode from 'vscode';
import { TransitionRefusedError } from '../../core/errors';
import { FAILED_STAGE } from '../../core/files/vocabulary';
import { stageOf, type StageDefinition } from '../../core/pipeline/pipelineDefinition';
import { hasRole } from '../../core/pipeline/stageRoles';
import { readReviewComments } from '../../core/review/reviewStore';
import { openThreadsOnStage, threadPlace } from '../../core/review/stageThreads';
import type { ChangeResult } from '../../core/repository/specPipeline';
import type { TransitionCheck } from '../../core/pipeline/transitionCheck';
import { approvalsBlockingAdvance } from '../../core/specdir/staleness';
import { localTime, splitSpecName } from '../format';
import type { SpecEntry } from '../specs/specRegistry';
import { remediesFirstThingFirst } from './remedies';
import { cancelled, createCommand, notify, openSpecFile, type CommandArgs, type CommandContext, type CommandOutcome } from './createCommand';
import { t, transitionDescription } from '../../core/messages';

const feature = (e: SpecEntry) => splitSpecName(e.spec.snapshot.name).feature;

function refused(message: string, reasons: string[], actions: { title: string; run: () => void }[] = []): CommandOutcome {
  notify('warning', reasons.length ? `${message}: ${reasons.join('; ')}` : message, actions);
  return { status: 'refused', message, reasons };
}

/** A button that opens the file to fix, or starts it when it does not exist yet. */
function fileAction(e: SpecEntry, file: string | undefined): { title: string; run: () => void }[] {
  if (!file) return [];
  const exists = e.spec.snapshot.files.has(file);
  return [{ title: exists ? vscode.l10n.t('Open {0}', file) : vscode.l10n.t('Create {0}', file), run: () => openSpecFile(e, file) }];
}

/** The transition lacks only a feature worktree, which Loom: Create Worktree makes (the git-worktree stage). */
const lacksWorktree = (check: TransitionCheck | undefined) => check?.verdicts.some((v) => v.call.type === 'worktreeExists' && !v.outcome.ok) ?? false;

function worktreeAction(e: SpecEntry, check: TransitionCheck | undefined): { title: string; run: () => void }[] {
  if (!lacksWorktree(check)) return [];
  return [{ title: vscode.l10n.t('Create Worktree'), run: () => void vscode.commands.executeCommand('loom.createWorktree', { specDir: e.dir }) }];
}

/** A refusal that is about the spec's stage itself (unreadable state, failed spec), worded for the user; else undefined. */
function stageRefusal(e: SpecEntry): CommandOutcome | undefined {
  const stage = e.spec.stage;
  if (stage === null) {
    return refused(
      vscode.l10n.t('{0}: pipeline.state.json could not be read, so its stage is unknown. Fix or restore it first; it was left untouched.', feature(e)),
      [],
      [{ title: vscode.l10n.t('Open {0}', 'pipeline.state.json'), run: () => openSpecFile(e, 'pipeline.state.json') }],
    );
  }
  if (stage === FAILED_STAGE) {
    return refused(
      vscode.l10n.t('{0} has failed: recover it to a stage first.', feature(e)),
      [],
      [{ title: vscode.l10n.t('Recover…'), run: () => void vscode.commands.executeCommand('loom.recover', { specDir: e.dir }) }],
    );
  }
  return undefined;
}

/**
 * Shows the pipeline's refusal: the actor decided and said why; this only words it for the
 * user and offers the remedy (Approve Again, Create Worktree, the file to fix).
 */
function presentRefusal(_ctx: CommandContext, e: SpecEntry, error: TransitionRefusedError, from: string, _to: string | undefined): CommandOutcome {
  const codes = error.details.codes ?? [];
  const check = error.details.check as TransitionCheck | undefined;
  if (codes.includes('spec-failed') || codes.includes('state-unreadable')) return stageRefusal(e) ?? refused(error.message, error.reasons);
  if (codes.includes('stale-approval')) {
    const blocking = approvalsBlockingAdvance(e.staleness.approvals, e.spec.definition, from);
    const reasons = blocking.length ? blocking.map((a) => vscode.l10n.t('{0} changed after {1} was approved ({2})', a.changed.join(', '), a.stage, localTime(a.approvedAt))) : error.reasons;
    return refused(vscode.l10n.t('Re-approval needed before {0} can advance. Review the changes, then approve the stage again, or restore the approved files', feature(e)), reasons, [
      { title: vscode.l10n.t('Approve Again…'), run: () => void vscode.commands.executeCommand('loom.reapprove', { specDir: e.dir }) },
      ...fileAction(e, blocking[0]?.changed[0] ?? error.details.file),
    ]);
  }
  if (codes.includes('no-gate')) return refused(vscode.l10n.t('{0} has no gate to approve at {1}: use Loom: Advance.', feature(e), from), []);
  if (check) {
    // What the user must still do besides confirming; the confirmation is asked here once they are done.
    const reasons = check.unmet.length ? check.unmet : error.reasons;
    return refused(
      vscode.l10n.t('{0} cannot move from {1} to {2}', feature(e), from, check.to),
      reasons,
      remediesFirstThingFirst(e, check, [...worktreeAction(e, check), ...fileAction(e, check.file)]),
    );
  }
  return refused(error.message, error.reasons, fileAction(e, error.details.file));
}

async function pickTransition(e: SpecEntry, checks: TransitionCheck[], title: string): Promise<TransitionCheck | undefined> {
  const picked = await vscode.window.showQuickPick(
    checks.map((c) => ({
      label: `${c.kind === 'retry' ? '$(debug-reverse-continue)' : '$(arrow-right)'} ${c.to}`,
      description: c.kind === 'retry' ? vscode.l10n.t('back to {0}', c.to) : c.ready ? vscode.l10n.t('ready') : vscode.l10n.t('blocked'),
      detail: c.ready ? transitionDescription(e.spec.stage ?? '', c.to, c.description) : c.unmet.join('; '),
      check: c,
    })),
    { title, placeHolder: vscode.l10n.t('Where should {0} go from {1}?', feature(e), e.spec.stage ?? '') },
  );
  return picked?.check;
}

/**
 * Asks the user to confirm leaving an interactive stage or an approval gate, naming the stage,
 * its outputs, what must be checked by hand and what is stale. Modal or quick pick per setting.
 */
/** Open review threads on the stage's outputs; a review-comments.json that does not parse counts as none (it is reported where comments are shown). */
function openThreadsLeft(e: SpecEntry, stage: StageDefinition) {
  try {
    return openThreadsOnStage(stage, readReviewComments({ dir: e.dir, specDir: e.spec.snapshot.specDir }));
  } catch {
    return [];
  }
}

async function confirmLeaving(ctx: CommandContext, e: SpecEntry, stage: StageDefinition, check: TransitionCheck, approve: boolean): Promise<boolean> {
  const overview = e.overview.stages.find((s) => s.id === stage.id);
  const title = approve
    ? vscode.l10n.t('Approve {0} of {1} and move it to {2}?', stage.id, feature(e), check.to)
    : vscode.l10n.t('Leave {0} of {1} and move it to {2}?', stage.id, feature(e), check.to);
  const lines: string[] = [];
  const outputs = overview?.outputs ?? [];
  lines.push(outputs.length ? vscode.l10n.t('Outputs of {0}: {1}', stage.id, outputs.map((o) => `${o.path} ${o.exists ? '✓' : '✗'}`).join(', ')) : vscode.l10n.t('{0} has no file outputs.', stage.id));
  for (const c of check.confirmations) lines.push(`• ${c}`);
  if (stage.humanApproval) {
    const files = (stage.approvalRequires.length ? stage.approvalRequires : stage.outputs).filter((p) => !p.endsWith('/') && p !== 'traceability.json');
    if (files.length) lines.push(vscode.l10n.t('Approving records the sha256 of {0}; a later change needs re-approval.', files.join(', ')));
  }
  for (const d of e.staleness.derived) lines.push(`⚠ ${vscode.l10n.t('{0} is older than {1}, which it is derived from.', d.output, d.input)}`);
  for (const a of e.staleness.approvals.filter((x) => x.stage === stage.id))
    lines.push(`⚠ ${vscode.l10n.t('Confirming re-approves {0}: {1} changed since the last approval.', stage.id, a.changed.join(', '))}`);
  const threads = openThreadsLeft(e, stage);
  if (threads.length) lines.push(`⚠ ${vscode.l10n.t('{0} comment thread(s) on its outputs are still open: {1}.', threads.length, threads.map(threadPlace).join(', '))}`);
  const ok = approve ? vscode.l10n.t('Approve') : vscode.l10n.t('Advance');

  if (ctx.config.confirmation === 'quickPick') {
    const picked = await vscode.window.showQuickPick(
      [
        { label: `$(check) ${ok}`, detail: lines.join('  '), ok: true },
        { label: `$(close) ${vscode.l10n.t('Cancel')}`, ok: false },
      ],
      { title, placeHolder: title, ignoreFocusOut: true },
    );
    return picked?.ok === true;
  }
  const choice = await vscode.window.showInformationMessage(title, { modal: true, detail: lines.join('\n') }, ok);
  return choice === ok;
}

/**
 * Loom: Advance and Loom: Approve, thin callers of the spec's actor. The host's part is the
 * conversation: which way when there are several, and the user's confirmation on interactive
 * stages and gates (asked only when nothing else is missing, from the same verdicts the actor
 * decides on). The actor takes the event or refuses it with its reasons, which are shown here.
 */
async function advance(ctx: CommandContext, e: SpecEntry, args: CommandArgs, approve: boolean): Promise<CommandOutcome> {
  const stuck = stageRefusal(e);
  if (stuck) return stuck;
  const stage = e.spec.stage!;
  const def = stageOf(e.spec.definition, stage);
  if (approve && !def?.confirmation) {
    return refused(vscode.l10n.t('{0} has no gate to approve at {1}: use Loom: Advance.', feature(e), stage), []);
  }
  const checks = e.spec.next().filter((c) => !approve || c.kind === 'forward');

  let check: TransitionCheck | undefined;
  if (args.to) check = checks.find((c) => c.to === args.to);
  else if (checks.length === 1) check = checks[0];
  else if (checks.length > 1) {
    check = await pickTransition(e, checks, approve ? vscode.l10n.t('Loom: Approve') : vscode.l10n.t('Loom: Advance'));
    if (!check) return cancelled;
  }

  let confirmed = args.confirm === true;
  // loom.review.blockOnOpenThreads: an interactive stage is not left with its review unanswered.
  if (check?.ready && check.kind === 'forward' && def?.confirmation && ctx.config.blockOnOpenThreads) {
    const open = openThreadsLeft(e, def);
    if (open.length) {
      const message = vscode.l10n.t('{0} cannot leave {1}: {2} comment thread(s) on its outputs are open (loom.review.blockOnOpenThreads).', feature(e), stage, open.length);
      notify('warning', `${message} ${open.map(threadPlace).join(', ')}`, [
        { title: vscode.l10n.t('Refine with the Model'), run: () => void vscode.commands.executeCommand('loom.refineSpec', { specDir: e.dir }) },
      ]);
      return { status: 'refused', message, reasons: open.map((t) => `${threadPlace(t)}: ${t.comments[0]?.body ?? ''}`) };
    }
  }
  if (check?.ready && (check.interactive || approve) && !confirmed) {
    // Leaving git-worktree, a missing worktree is better made than confirmed away.
    if (hasRole(e.spec.definition, stage, 'worktree') && check.kind === 'forward' && lacksWorktree(check)) {
      const create = vscode.l10n.t('Create Worktree');
      const anyway = vscode.l10n.t('Advance Anyway…');
      const choice = await vscode.window.showWarningMessage(
        vscode.l10n.t('{0} has no feature worktree yet.', feature(e)),
        { modal: true, detail: vscode.l10n.t('Loom: Create Worktree makes branch and worktree and records it; then advance again.') },
        create,
        anyway,
      );
      if (choice === create) return (await vscode.commands.executeCommand<CommandOutcome>('loom.createWorktree', { specDir: e.dir })) ?? cancelled;
      if (choice !== anyway) return cancelled;
    }
    confirmed = def ? await confirmLeaving(ctx, e, def, check, approve) : false;
    if (!confirmed) return cancelled;
  }

  let result: ChangeResult;
  try {
    // loom 3 asks the caller to confirm it compressed the closed stage's context (compression_confirmed)
    // where the step's outputs name handoffs/<stage>.json. The extension's stage work (a task run,
    // each @loom command) starts from the spec's files, not from the closed stage's conversation,
    // so Advance, Approve, the dashboard and the chat's Advance button confirm it themselves.
    const compressionConfirmed = true;
    result = approve ? e.spec.approve({ compressionConfirmed, reason: args.reason }) : e.spec.advance({ to: check?.to ?? args.to, confirm: confirmed, compressionConfirmed, reason: args.reason });
  } catch (error) {
    if (error instanceof TransitionRefusedError) return presentRefusal(ctx, e, error, stage, check?.to ?? args.to);
    throw error;
  }
  if (result.complete) {
    ctx.log.component('advance').info(`${e.spec.snapshot.specDir}: ${result.from} ${result.alreadyComplete ? 'was already complete' : 'completed'}`);
    if (result.alreadyComplete) {
      notify('info', vscode.l10n.t('{0} is at {1}, the end of its pipeline.', feature(e), stage));
      return { status: 'refused', message: vscode.l10n.t('{0} is at the end of its pipeline', e.spec.snapshot.specDir), reasons: [] };
    }
    notify('info', vscode.l10n.t('{0}: {1} completed; the pipeline is done.', feature(e), result.from));
    return { status: 'done', specDir: e.dir, from: result.from, to: result.to };
  }
  ctx.log.component('advance').info(`${e.spec.snapshot.specDir}: ${result.from} → ${result.to}${confirmed ? ' (confirmed)' : ''}`);
  ctx.registry.reloadNow(e.dir);
  notify('info', vscode.l10n.t('{0}: {1} → {2}', feature(e), result.from, result.to));
  return { status: 'done', specDir: e.dir, from: result.from, to: result.to };
}

async function askReason(prompt: string): Promise<string | undefined> {
  return vscode.window.showInputBox({
    prompt,
    placeHolder: vscode.l10n.t('The reason is recorded in the stage history'),
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('A reason is required.')),
  });
}

/** Runs one change of the actor; its refusal is shown as the pipeline worded it. */
function send<T>(ctx: CommandContext, e: SpecEntry, change: () => T): T | CommandOutcome {
  try {
    return change();
  } catch (error) {
    if (error instanceof TransitionRefusedError) return presentRefusal(ctx, e, error, e.spec.stage ?? '', undefined);
    throw error;
  }
}

const isOutcome = (x: unknown): x is CommandOutcome => typeof x === 'object' && x !== null && 'status' in x;

async function markFailed(ctx: CommandContext, e: SpecEntry, args: CommandArgs): Promise<CommandOutcome> {
  const stuck = stageRefusal(e);
  if (stuck) return stuck;
  const stage = e.spec.stage!;
  const reason = args.reason?.trim() || (await askReason(vscode.l10n.t('Why does {0} fail at {1}?', feature(e), stage)))?.trim();
  if (!reason) return cancelled;
  const result = send(ctx, e, () => e.spec.fail(reason));
  if (isOutcome(result)) return result;
  ctx.log.component('fail').info(`${e.spec.snapshot.specDir}: ${result.from} → failed (${reason})`);
  ctx.registry.reloadNow(e.dir);
  notify('info', vscode.l10n.t('{0} marked failed at {1}. Use Loom: Recover to continue.', feature(e), result.from));
  return { status: 'done', specDir: e.dir, from: result.from, to: result.to };
}

async function recover(ctx: CommandContext, e: SpecEntry, args: CommandArgs): Promise<CommandOutcome> {
  if (e.spec.stage === null) return stageRefusal(e)!;
  if (e.spec.stage !== FAILED_STAGE) {
    return refused(vscode.l10n.t('{0} has not failed (it is at {1}); Mark Failed first to send it back.', feature(e), e.spec.stage), []);
  }
  const checks = e.spec.next();
  let check: TransitionCheck | undefined;
  if (args.to) {
    check = checks.find((c) => c.to === args.to);
    if (!check) throw new TransitionRefusedError(vscode.l10n.t('A failed spec can recover to {0}, not {1}', e.spec.definition.recoveryTargets.join(', '), args.to), []);
  } else {
    const picked = await vscode.window.showQuickPick(
      checks.map((c) => ({
        label: `$(debug-restart) ${c.to}`,
        description: c.ready ? vscode.l10n.t('ready') : vscode.l10n.t('blocked'),
        detail: c.ready ? transitionDescription(e.spec.stage ?? '', c.to, c.description) : c.unmet.join('; '),
        check: c,
      })),
      { title: vscode.l10n.t('Loom: Recover'), placeHolder: vscode.l10n.t('Which stage should {0} restart from?', feature(e)) },
    );
    check = picked?.check;
  }
  if (!check) return cancelled;
  // Asking for a reason is pointless when the actor will refuse: its verdicts are read first.
  if (!check.ready) return refused(vscode.l10n.t('{0} cannot recover to {1}', feature(e), check.to), check.unmet, fileAction(e, check.file));
  const reason = args.reason?.trim() || (await askReason(vscode.l10n.t('Why does {0} restart from {1}?', feature(e), check.to)))?.trim();
  if (!reason) return cancelled;
  const to = check.to;
  const result = send(ctx, e, () => e.spec.recover(to, { reason }));
  if (isOutcome(result)) return result;
  ctx.log.component('recover').info(`${e.spec.snapshot.specDir}: failed → ${result.to} (${reason})`);
  ctx.registry.reloadNow(e.dir);
  notify('info', vscode.l10n.t('{0}: failed → {1}', feature(e), result.to));
  return { status: 'done', specDir: e.dir, from: result.from, to: result.to };
}

/**
 * Loom: Approve Again. A gate already passed whose approved files changed since blocks advancing
 * (loom: "re-review and pass the gate again"). After the user has looked at the changed files and
 * confirms, the gate's files are fingerprinted anew in its stale history entries; the spec
 * stays at its stage.
 */
async function reapprove(ctx: CommandContext, e: SpecEntry, args: CommandArgs): Promise<CommandOutcome> {
  if (e.spec.stage === null) return stageRefusal(e)!;
  const stale = e.spec.staleApprovals();
  if (stale.length === 0) {
    notify('info', vscode.l10n.t('No approval of {0} is stale: nothing to approve again.', feature(e)));
    return { status: 'refused', message: t('refusal.noStaleApproval', { specDir: e.spec.snapshot.specDir }), reasons: [] };
  }
  let chosen = args.approvalStage ? stale.find((a) => a.stage === args.approvalStage) : stale.length === 1 ? stale[0] : undefined;
  if (args.approvalStage && !chosen) {
    return refused(vscode.l10n.t('The approval of {0} is not stale; stale: {1}', args.approvalStage, stale.map((a) => a.stage).join(', ')), []);
  }
  if (!chosen) {
    const picked = await vscode.window.showQuickPick(
      stale.map((a) => ({
        label: `$(warning) ${a.stage}`,
        description: vscode.l10n.t('approved at {0}', localTime(a.approvedAt)),
        detail: vscode.l10n.t('Changed since: {0}', a.changed.join(', ')),
        approval: a,
      })),
      { title: vscode.l10n.t('Loom: Approve Again'), placeHolder: vscode.l10n.t('Which approval of {0} should be renewed?', feature(e)) },
    );
    chosen = picked?.approval;
  }
  if (!chosen) return cancelled;

  if (!args.confirm) {
    const title = vscode.l10n.t('Approve {0} of {1} again?', chosen.stage, feature(e));
    const detail = [
      vscode.l10n.t('Changed since the approval of {0}: {1}', localTime(chosen.approvedAt), chosen.changed.join(', ')),
      vscode.l10n.t('The new sha256 of the approved files is recorded; {0} stays at {1}.', feature(e), e.spec.stage),
    ];
    const ok = vscode.l10n.t('Approve Again');
    const open = vscode.l10n.t('Open Changed Files');
    let choice: string | undefined;
    if (ctx.config.confirmation === 'quickPick') {
      const picked = await vscode.window.showQuickPick(
        [
          { label: `$(check) ${ok}`, detail: detail.join('  '), id: ok },
          { label: `$(go-to-file) ${open}`, id: open },
          { label: `$(close) ${vscode.l10n.t('Cancel')}`, id: '' },
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
  const approval = chosen.stage;
  const result = send(ctx, e, () => e.spec.reapprove(approval, { reason: args.reason }));
  if (isOutcome(result)) return result;
  ctx.log.component('reapprove').info(`${e.spec.snapshot.specDir}: ${result.stage} approved again (${result.changed.join(', ')} had changed)`);
  ctx.registry.reloadNow(e.dir);
  notify('info', vscode.l10n.t('{0}: {1} approved again; the spec stays at {2}.', feature(e), result.stage, result.state.current_stage));
  return { status: 'done', specDir: e.dir, from: result.stage, to: result.state.current_stage };
}

export function registerPipelineCommands(ctx: CommandContext): vscode.Disposable[] {
  const writes = { spec: true, writes: true };
  return [
    createCommand(ctx, 'loom.advance', { ...writes, placeHolder: vscode.l10n.t('Which spec should advance?') }, (a, e) => advance(ctx, e!, a, false)),
    createCommand(ctx, 'loom.approve', { ...writes, placeHolder: vscode.l10n.t('Which spec should be approved?') }, (a, e) => advance(ctx, e!, a, true)),
    createCommand(ctx, 'loom.markFailed', { ...writes, placeHolder: vscode.l10n.t('Which spec failed?') }, (a, e) => markFailed(ctx, e!, a)),
    createCommand(ctx, 'loom.recover', { ...writes, placeHolder: vscode.l10n.t('Which spec should recover?') }, (a, e) => recover(ctx, e!, a)),
    createCommand(ctx, 'loom.reapprove', { ...writes, placeHolder: vscode.l10n.t("Which spec's approval should be renewed?") }, (a, e) => reapprove(ctx, e!, a)),
  ];
}
