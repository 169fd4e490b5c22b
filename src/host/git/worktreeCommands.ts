import * as vscode from 'vscode';
import { request } from '../../core/port/request';
import { presentRefused } from '../commands/answers';
import { createCommand, notify, type CommandContext, type CommandOutcome } from '../commands/createCommand';
import { splitSpecName } from '../format';
import type { SpecEntry } from '../specs/specRegistry';
import { t } from '../../core/port/messages';
import { signalFromToken } from '../lm/cancellation';

/**
 * Loom: Create Worktree, the git-worktree stage: the feature branch and its worktree (made or
 * reused), recorded in pipeline.state.json `metadata.worktree_path` by the spec's actor.
 */
async function createWorktree(ctx: CommandContext, e: SpecEntry): Promise<CommandOutcome> {
  const feature = splitSpecName(e.spec.snapshot.name).feature;
  const answer = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: t('host.git.loomCreatingWorktree', { feature }),
      cancellable: true,
    },
    async (_progress, token) => {
      const stop = signalFromToken(token);
      try {
        // The spec's actor has git make (or reuse) it and records it in the state.
        return await request(e.spec, { type: 'createWorktree', location: ctx.config.worktreeLocation, signal: stop.signal });
      } finally {
        stop.dispose();
      }
    },
  );
  if (answer.kind === 'refused') return presentRefused(ctx, e, answer, 'worktree');
  if (answer.kind !== 'changed') return { status: 'cancelled' };
  const { worktree } = answer;
  ctx.log.component('worktree').info(`${e.spec.snapshot.specDir}: ${worktree.created ? 'created' : 'reusing'} ${worktree.branch} at ${worktree.path}`);
  const message = worktree.created
    ? t('host.git.createdBranchWorktreeAt', { feature, branch: worktree.branch, path: worktree.path })
    : t('host.git.usingExistingWorktreeAt', { feature, branch: worktree.branch, path: worktree.path });
  notify('info', message, [{ title: t('host.git.openNewWindow'), run: () => void vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(worktree.path), { forceNewWindow: true }) }]);
  return { status: 'done', specDir: e.dir, uri: vscode.Uri.file(worktree.path).toString() };
}

export function registerWorktreeCommands(ctx: CommandContext): vscode.Disposable[] {
  return [createCommand(ctx, 'loom.createWorktree', { spec: true, writes: true, placeHolder: t('host.git.whichSpecNeedsWorktree') }, (_a, e) => createWorktree(ctx, e!))];
}
