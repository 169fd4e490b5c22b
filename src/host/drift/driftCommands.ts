import { join } from 'node:path';
import * as vscode from 'vscode';
import { driftSummary, personOf } from '../../core/port/drift';
import { t } from '../../core/port/messages';
import { request } from '../../core/port/request';
import { presentRefused } from '../commands/answers';
import { cancelled, createCommand, notify, type CommandContext, type CommandOutcome } from '../commands/createCommand';
import type { SpecEntry } from '../specs/specRegistry';
import { checkpointUri } from '../executing/taskThreads';
import type { SpecDrifts } from './specDrifts';

/**
 * Loom: Accept Spec as Accurate: the person says the code as it is now is what the spec means;
 * the spec's actor moves its drift baseline to HEAD, recording who (git's identity, else the
 * account) and the reason the person types. No model is asked.
 */
export async function acceptSpecAsAccurate(ctx: CommandContext, e: SpecEntry, given?: string): Promise<CommandOutcome> {
  const specDir = e.spec.snapshot.specDir;
  const reason =
    given ??
    (await vscode.window.showInputBox({
      title: t('host.drift.acceptTitle', { specDir }),
      prompt: t('host.drift.acceptPrompt'),
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() ? undefined : t('host.drift.acceptReasonNeeded')),
    }));
  if (reason === undefined) return cancelled;
  const by = await personOf(e.spec.snapshot.repoRoot, 'Loom: Accept Spec as Accurate');
  const answer = await request(e.spec, { type: 'moveBaseline', source: 'accepted', by, reason }, { approver: { by: 'person', through: 'palette' } });
  if (answer.kind === 'refused') return presentRefused(ctx, e, answer, 'drift');
  if (answer.kind !== 'changed') return cancelled;
  const b = answer.baseline;
  const message = t('drift.accept.done', { specDir, commit: b.commit.slice(0, 7), source: t('drift.source.accepted'), by: b.by ?? by, reason: b.reason ?? reason });
  ctx.log.component('drift').info(message);
  notify('info', message);
  return { status: 'done', specDir: e.dir, message };
}

/**
 * Show Drift Diff: one file a drifted spec speaks for, in VS Code's diff from the spec's baseline
 * commit (through the checkpoint documents, `git show` of that commit) to the working tree; a
 * renamed file is shown under its new name, a deleted one against nothing. The file must be one the
 * spec's drift names: the dashboard's message is not trusted for anything else.
 */
export async function showDriftDiff(drifts: SpecDrifts, e: SpecEntry, file: string | undefined): Promise<CommandOutcome> {
  await drifts.whenRead();
  const d = drifts.drift(e.dir);
  const specDir = e.spec.snapshot.specDir;
  const files = d?.status === 'drifted' ? d.files : [];
  const chosen =
    file ??
    (await vscode.window.showQuickPick(
      files.map((f) => f.path),
      { placeHolder: t('host.drift.diffWhichFile', { specDir }) },
    ));
  if (chosen === undefined) return cancelled;
  const f = files.find((x) => x.path === chosen);
  if (!d?.baseline || !f) {
    const message = t('host.drift.notDrifted', { specDir, file: chosen });
    notify('info', message);
    return { status: 'refused', message, reasons: [] };
  }
  const root = e.spec.snapshot.repoRoot;
  const now = f.renamedTo ?? f.path;
  const left = checkpointUri(root, d.baseline.commit, f.path);
  // A file gone from the working tree is compared with nothing, so the whole of it reads as removed.
  const right = f.change === 'deleted' ? checkpointUri(root, EMPTY_TREE, f.path) : vscode.Uri.file(join(root, ...now.split('/')));
  await vscode.commands.executeCommand('vscode.diff', left, right, t('host.drift.diffTitle', { file: now, commit: d.baseline.commit.slice(0, 7) }), { preview: true });
  return { status: 'done', specDir: e.dir, message: now, uri: left.toString() };
}

/**
 * Loom: Reconcile Spec with the Code: opens the chat on `@loom /reconcile` for the spec, with the
 * model the person picks there (the proposal is previewed and written from the chat). Without any
 * model, Accept as Accurate is what remains, and the message says so.
 */
export async function reconcileIn(drifts: SpecDrifts, e: SpecEntry): Promise<CommandOutcome> {
  const specDir = e.spec.snapshot.specDir;
  await drifts.whenRead();
  const d = drifts.drift(e.dir);
  if (d?.status !== 'drifted') {
    const message = t('host.drift.nothingToReconcile', { specDir, summary: d ? driftSummary(d) : (e.spec.stage ?? '?') });
    notify('info', message);
    return { status: 'refused', message, reasons: [] };
  }
  if (!(await vscode.lm.selectChatModels()).length) {
    const message = t('host.drift.reconcileNeedsModel');
    notify('info', message, [{ title: t('view.drift.accept'), run: () => void vscode.commands.executeCommand('loom.acceptSpecAsAccurate', { specDir: e.dir }) }]);
    return { status: 'refused', message, reasons: [] };
  }
  await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@loom /reconcile ${specDir}`, isPartialQuery: false });
  return { status: 'done', specDir: e.dir };
}

/** git's empty tree: no file is at it, so its document is empty. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

export function registerDriftCommands(ctx: CommandContext, drifts: SpecDrifts): vscode.Disposable[] {
  return [
    createCommand(ctx, 'loom.acceptSpecAsAccurate', { spec: true, writes: true, placeHolder: t('host.drift.acceptWhichSpec') }, (a, e) => acceptSpecAsAccurate(ctx, e!, a.reason)),
    createCommand(ctx, 'loom.showDriftDiff', { spec: true, writes: false }, (a, e) => showDriftDiff(drifts, e!, a.file)),
    createCommand(ctx, 'loom.reconcileSpec', { spec: true, writes: true, placeHolder: t('host.drift.acceptWhichSpec') }, (_a, e) => reconcileIn(drifts, e!)),
  ];
}
