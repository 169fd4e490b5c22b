import * as vscode from 'vscode';
import { personOf } from '../../core/port/drift';
import { t } from '../../core/port/messages';
import { request } from '../../core/port/request';
import { presentRefused } from '../commands/answers';
import { cancelled, createCommand, notify, type CommandContext, type CommandOutcome } from '../commands/createCommand';
import type { SpecEntry } from '../specs/specRegistry';

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

export function registerDriftCommands(ctx: CommandContext): vscode.Disposable[] {
  return [createCommand(ctx, 'loom.acceptSpecAsAccurate', { spec: true, writes: true, placeHolder: t('host.drift.acceptWhichSpec') }, (a, e) => acceptSpecAsAccurate(ctx, e!, a.reason))];
}
