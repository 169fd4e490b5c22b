import * as vscode from 'vscode';
import type { Answer } from '../../core/port/answer';
import { request } from '../../core/port/request';
import { handOnMissing, handOnPlan, handOnReadiness, type HandOnPlan } from '../../core/port/sync';
import { specLanguage, t } from '../../core/port/messages';
import { presentRefused } from '../commands/answers';
import { createCommand, notify, type CommandContext, type CommandOutcome } from '../commands/createCommand';
import { splitSpecName } from '../format';
import type { SpecEntry } from '../specs/specRegistry';

/** The GitHub Pull Requests extension, and its command that opens the Create Pull Request view. */
const GITHUB_PR_EXTENSION = 'GitHub.vscode-pull-request-github';
const GITHUB_PR_CREATE = 'pr.create';

/** The part of VS Code's git extension API (vscode.git, API version 1) the hand-on uses. */
interface GitRepository {
  readonly rootUri: vscode.Uri;
  readonly state: { readonly HEAD?: { readonly name?: string } };
  push(remoteName?: string, branchName?: string, setUpstream?: boolean): Promise<void>;
}
interface GitApi {
  openRepository?(root: vscode.Uri): Promise<GitRepository | null>;
  getRepository(uri: vscode.Uri): GitRepository | null;
}

async function gitApi(): Promise<GitApi | undefined> {
  const ext = vscode.extensions.getExtension<{ getAPI(version: 1): GitApi }>('vscode.git');
  if (!ext) return undefined;
  try {
    const exports = ext.isActive ? ext.exports : await ext.activate();
    return exports.getAPI(1);
  } catch {
    // Git disabled (git.enabled false) or not installed: the commands are shown instead.
    return undefined;
  }
}

/** How the branch went on: pushed (and the pull request view opened), or the commands to run. */
export type HandOnOutcome = { pushed: true; pullRequest: 'github-extension' | 'commands' } | { pushed: false; reason: string };

/**
 * Pushes the feature branch through VS Code's git extension, then opens the GitHub Pull Requests
 * extension's Create view where it is installed. Where neither can, the exact commands are shown
 * (and copied), so the person can run them in a terminal.
 */
export async function handOnBranch(plan: HandOnPlan, log: (line: string) => void): Promise<HandOnOutcome> {
  const root = vscode.Uri.file(plan.worktree ?? '');
  const git = plan.worktree ? await gitApi() : undefined;
  const repo = git ? ((await git.openRepository?.(root)) ?? git.getRepository(root)) : undefined;
  if (!repo) return { pushed: false, reason: plan.worktree ? t('host.pipelineRun.vSCodeSGitExtension') : t('host.pipelineRun.featureHasNoWorktree') };
  try {
    await repo.push(plan.remote, plan.branch, true);
  } catch (e) {
    const reason = (e as { stderr?: string; message?: string }).stderr?.trim() || (e as Error).message || String(e);
    log(`push ${plan.branch} to ${plan.remote} failed: ${reason}`);
    return { pushed: false, reason };
  }
  if (vscode.extensions.getExtension(GITHUB_PR_EXTENSION)) {
    await vscode.commands.executeCommand(GITHUB_PR_CREATE);
    return { pushed: true, pullRequest: 'github-extension' };
  }
  return { pushed: true, pullRequest: 'commands' };
}

/** The commands that still need running, shown where the person can copy them. */
async function showCommands(plan: HandOnPlan, commands: readonly string[], why: string): Promise<void> {
  await vscode.env.clipboard.writeText(commands.join('\n'));
  const copied = t('host.pipelineRun.commandsAreClipboard', { why, commands: commands.join(' ; ') });
  notify('info', copied, [{ title: t('host.pipelineRun.openTerminal'), run: () => vscode.window.createTerminal({ cwd: plan.worktree, name: `Loom: ${plan.branch}` }).show() }]);
}

/**
 * Loom: Sync, the synced stage (loom's index-update skill): the spec's actor writes the feature's
 * decisions and pitfalls into `.loom/memory/store.json` through loom_add_memory's writer (a
 * repeated sync adds nothing twice), or says why not; then the branch is handed on.
 */
export async function syncSpec(ctx: CommandContext, e: SpecEntry): Promise<CommandOutcome> {
  return syncAnswered(ctx, e, await request(e.spec, { type: 'sync' }));
}

/** The actor's answer to Sync shown: its refusal, or the memory it wrote and then the branch handed on. */
export async function syncAnswered(ctx: CommandContext, e: SpecEntry, answer: Answer<'sync'>): Promise<CommandOutcome> {
  if (answer.kind === 'refused') return presentRefused(ctx, e, answer, 'sync');
  if (answer.kind !== 'changed') return { status: 'cancelled' };
  const { snapshot } = e.spec;
  const feature = splitSpecName(snapshot.name).feature;
  const { added, found, file } = answer.memory;
  const log = ctx.log.component('sync');
  log.info(`${snapshot.specDir}: ${added.length} of ${found} memory entries added to ${file}`);
  const plan = handOnPlan(snapshot, specLanguage(snapshot));
  const outcome = await handOnBranch(plan, (l) => log.warn(l));
  const memory = t('host.pipelineRun.newMemoryEntries', { feature, addedCount: added.length, file });
  if (!outcome.pushed) {
    // What must be made before the commands can work (the branch, the remote) is said with them.
    const missing = handOnMissing(plan, await handOnReadiness(plan, plan.worktree ?? snapshot.repoRoot), specLanguage(snapshot));
    await showCommands(plan, plan.commands, [`${memory}; ${t('host.pipelineRun.branchWasNotPushed', { reason: outcome.reason })}`, ...missing.map((m) => m.replace(/\.$/, ''))].join('. '));
  } else if (outcome.pullRequest === 'commands') await showCommands(plan, plan.commands.slice(1), `${memory}; ${t('host.pipelineRun.pushed', { branch: plan.branch })}`);
  else notify('info', `${memory}; ${t('host.pipelineRun.pushed', { branch: plan.branch })}`);
  return { status: 'done', specDir: e.dir, outcome: outcome.pushed ? 'pushed' : 'commands', message: plan.commands.join('\n') };
}

export function registerSyncCommand(ctx: CommandContext): vscode.Disposable[] {
  return [createCommand(ctx, 'loom.syncFeature', { spec: true, writes: true, placeHolder: t('host.pipelineRun.syncWhichSpec') }, (_a, e) => syncSpec(ctx, e!))];
}
