import * as vscode from 'vscode';
import { t } from '../../core/port/messages';
import type { NeedsConfirmation, Refused, Remedy } from '../../core/port/answer';
import type { Question } from '../../core/port/question';
import type { SpecEntry } from '../specs/specRegistry';
import { notify, openSpecFile, type CommandContext, type CommandOutcome } from './createCommand';

/** A button of a notification or a dialog, and what it does. */
export interface Action {
  title: string;
  run: () => void;
}

const command =
  (id: string, e: SpecEntry, extra: Record<string, unknown> = {}) =>
  () =>
    void vscode.commands.executeCommand(id, { specDir: e.dir, ...extra });

/** What a remedy of the actor's answer is in VS Code: a button with the command that helps. */
export function remedyAction(e: SpecEntry, r: Remedy): Action | undefined {
  switch (r.kind) {
    case 'open-file':
      return { title: r.exists ? t('host.commands.open', { file: r.file }) : t('host.commands.create', { file: r.file }), run: () => openSpecFile(e, r.file) };
    case 'reapprove':
      return { title: t('host.commands.approveAgain'), run: command('loom.reapprove', e) };
    case 'create-worktree':
      return { title: t('host.commands.createWorktree'), run: command('loom.createWorktree', e) };
    case 'recover':
      return { title: t('host.commands.recover'), run: command('loom.recover', e) };
    case 'refine-threads':
      return { title: t('host.commands.refineModel'), run: command('loom.refineSpec', e) };
    case 'stop-tasks':
      return { title: t('host.commands.stopTasks'), run: command('loom.stopTasks', e) };
    case 'run-tasks':
      return { title: t('ask.runTasks.ok'), run: command('loom.runTasks', e) };
    case 'approve':
      return { title: t('remedy.approve'), run: command('loom.approve', e) };
    case 'advance':
      return r.to ? { title: t('view.next.moveTo', { stage: r.to }), run: command('loom.advance', e, { to: r.to }) } : { title: t('ask.advance.ok'), run: command('loom.advance', e) };
    // The extension's own moves confirm the compression themselves: nothing to offer a person.
    case 'model-settings':
      return { title: t('host.commands.openModelSettings'), run: () => void vscode.commands.executeCommand('workbench.action.openSettings', 'loom.models') };
    case 'compress-context':
      return undefined;
  }
}

/**
 * Shows the actor's refusal as it worded it, with the remedies it names as buttons (the first
 * three: a notification shows no more); the command's wrapper logs it with every reason.
 */
export function presentRefused(ctx: CommandContext, e: SpecEntry, a: Refused, component: string): CommandOutcome {
  ctx.log.component(component).debug(`${e.spec.snapshot.specDir}: refused (${a.codes.join(', ')})`);
  const actions = a.remedies.flatMap((r) => remedyAction(e, r) ?? []).slice(0, 3);
  // What the person must still do; their word is asked once that is done, so it is not a reason here.
  const reasons = a.check?.unmet.length ? a.check.unmet : a.reasons;
  notify('warning', reasons.length ? `${a.message}: ${reasons.join('; ')}` : a.message, actions);
  return { status: 'refused', message: a.message, reasons, code: a.code };
}

/**
 * Puts the actor's question to the person, as a modal dialog or a quick pick
 * (`loom.confirmation`), with the remedies it offers instead (Create Worktree) as more buttons.
 * Resolves true when they said yes; a remedy chosen runs and counts as no.
 */
export async function askPerson(ctx: CommandContext, e: SpecEntry, a: NeedsConfirmation): Promise<boolean> {
  const alternatives = (a.remedies ?? []).flatMap((r) => remedyAction(e, r) ?? []);
  return confirmQuestion(ctx, a.question, alternatives);
}

/** A question with its yes button and other ways out, in the style the user chose. */
export async function confirmQuestion(ctx: CommandContext, q: Question, alternatives: Action[] = []): Promise<boolean> {
  if (ctx.config.confirmation === 'quickPick') {
    const picked = await vscode.window.showQuickPick(
      [
        { label: `$(check) ${q.ok}`, detail: q.lines.join('  '), run: undefined as (() => void) | undefined, ok: true },
        ...alternatives.map((x) => ({ label: `$(tools) ${x.title}`, detail: undefined, run: x.run, ok: false })),
        { label: `$(close) ${t('host.commands.cancel')}`, detail: undefined, run: undefined, ok: false },
      ],
      { title: q.title, placeHolder: q.title, ignoreFocusOut: true },
    );
    picked?.run?.();
    return picked?.ok === true;
  }
  const choice = await vscode.window.showInformationMessage(q.title, { modal: true, detail: q.lines.join('\n') }, q.ok, ...alternatives.map((x) => x.title));
  alternatives.find((x) => x.title === choice)?.run();
  return choice === q.ok;
}
