import * as vscode from 'vscode';
import { starterText } from '../../core/port/authoring';
import { CorruptStateError, LoomError, SpecLockedError, TransitionRefusedError } from '../../core/port/errors';
import { specLanguage, displayLanguage, t } from '../../core/port/messages';
import type { LoomConfig } from '../config';
import type { Log } from '../log';
import type { SpecEntry, SpecRegistry } from '../specs/specRegistry';
import { isLoomNode, specDirOfNode } from '../tree/nodes';
import { SpecTreeProvider } from '../tree/specTreeProvider';
import type { SpecsView } from '../tree/specsView';
import { UntrustedWorkspaceError, type WorkspaceTrust } from '../trust';

/** What every command can reach. */
export interface CommandContext {
  registry: SpecRegistry;
  view: SpecsView;
  log: Log;
  trust: WorkspaceTrust;
  config: LoomConfig;
}

/**
 * Explicit arguments a command accepts instead of asking (tests, other commands, the status
 * bar). Everything not given is asked for the way a user is asked.
 */
export interface CommandArgs {
  /** Absolute, or relative to a workspace folder (`specs/2026-11-29+login`). */
  specDir?: string;
  to?: string;
  /** The user has already confirmed the interactive stage or the approval gate. */
  confirm?: boolean;
  reason?: string;
  /** New Feature: the feature's name and the workspace folder (path or name) to create it in. */
  name?: string;
  folder?: string;
  /** Filter: text and/or stage; `clear` removes the filter. */
  text?: string;
  stage?: string;
  clear?: boolean;
  /** Breaker choice (dashboard buttons): the task and the choice A, B or C. */
  taskId?: string;
  choice?: string;
  /** Approve Again: the gate whose stale approval to renew (else the only one, else asked). */
  approvalStage?: string;
  /** Override Finding: the finding (its id, and its message to check the id still names it). */
  findingId?: string;
  message?: string;
  /** Reject File: the file of the task's checkpoint, and the person's words for the implementer. */
  file?: string;
  words?: string;
  /** Run Pipeline: `supervised` or `autopilot` (else the setting, else asked). */
  mode?: string;
}

/** What a command did; tests read it, users see messages. */
export type CommandOutcome =
  | { status: 'done'; specDir?: string; from?: string; to?: string; uri?: string; outcome?: string; message?: string; finished?: string[]; skipped?: string[]; resumeWith?: 'run-tasks' }
  | { status: 'refused'; message: string; reasons: string[]; code?: string }
  | { status: 'cancelled' }
  | { status: 'failed'; message: string };

export const cancelled: CommandOutcome = { status: 'cancelled' };

function argsOf(arg: unknown): { args: CommandArgs; dir?: string; uri?: vscode.Uri } {
  if (arg instanceof vscode.Uri) return { args: {}, uri: arg };
  // A task row carries its task: Show Transcripts from it lists that task's dispatches only.
  if (isLoomNode(arg)) {
    const dir = specDirOfNode(arg);
    // A stale approval's note or stage row names the gate to approve again.
    const approval = arg.kind === 'note' ? arg.staleApproval : arg.kind === 'stage' ? arg.stage : undefined;
    return { args: { specDir: dir, ...(arg.kind === 'task' ? { taskId: arg.task } : {}), ...(approval ? { approvalStage: approval } : {}) }, dir };
  }
  if (arg && typeof arg === 'object') {
    const raw = arg as Record<string, unknown>;
    const str = (k: string) => (typeof raw[k] === 'string' ? (raw[k] as string) : undefined);
    return {
      args: {
        specDir: str('specDir'),
        to: str('to'),
        reason: str('reason'),
        name: str('name'),
        folder: str('folder'),
        text: str('text'),
        stage: str('stage'),
        confirm: raw.confirm === true,
        clear: raw.clear === true,
        taskId: str('taskId'),
        choice: str('choice'),
        findingId: str('findingId'),
        message: str('message'),
        approvalStage: str('approvalStage'),
        file: str('file'),
        words: str('words'),
        mode: str('mode'),
      },
      dir: str('specDir'),
    };
  }
  return { args: {} };
}

/**
 * The spec a command is about: the one it was invoked on (a tree row, a file, `specDir`), else
 * the spec selected in the visible tree, else the active editor's spec, else a quick pick.
 */
async function resolveSpec(ctx: CommandContext, dir: string | undefined, uri: vscode.Uri | undefined, placeHolder: string): Promise<SpecEntry | undefined> {
  await ctx.registry.start();
  if (dir) {
    const found = ctx.registry.entry(dir);
    if (!found) throw new LoomError(t('host.commands.notLoomSpecDirectoryWorkspace', { dir }));
    return found;
  }
  if (uri) {
    const found = ctx.registry.entryFor(uri);
    if (found) return found;
  }
  const focused = ctx.view.specInFocus();
  if (focused) return focused;

  const entries = ctx.registry.entries().sort((a, b) => b.spec.snapshot.name.localeCompare(a.spec.snapshot.name));
  if (entries.length === 0) {
    void vscode.window.showInformationMessage(t('host.commands.thereAreNoLoomSpecs'));
    return undefined;
  }
  if (entries.length === 1) return entries[0];
  const multi = ctx.registry.folderCount > 1;
  const picked = await vscode.window.showQuickPick(
    entries.map((e) => ({
      label: SpecTreeProvider.pickLabel(e),
      description: [e.spec.stage ?? t('host.commands.stateUnreadable'), `${e.overview.progress.done}/${e.overview.progress.total}`, ...(multi ? [e.folder.name] : [])].join(' · '),
      entry: e,
    })),
    { placeHolder, matchOnDescription: true },
  );
  return picked?.entry;
}

/**
 * Opens a spec-relative file of the entry; one that does not exist yet opens as an unsaved editor
 * at its path, holding the file's starter text when it has a known shape (starterFiles: spec.md,
 * requirements.json), so that Save writes it there.
 */
export function openSpecFile(e: SpecEntry, file: string): void {
  const uri = vscode.Uri.joinPath(e.uri, ...file.split('/').filter(Boolean));
  if (file.endsWith('/')) {
    void vscode.commands.executeCommand('revealInExplorer', e.spec.snapshot.files.has(file) ? uri : e.uri);
    return;
  }
  const exists = e.spec.snapshot.files.has(file) || e.spec.snapshot.files.has(`${file.split('/')[0]}/`);
  if (exists) void vscode.commands.executeCommand('vscode.open', uri);
  else void openStarter(e, file, uri.with({ scheme: 'untitled' }));
}

async function openStarter(e: SpecEntry, file: string, untitled: vscode.Uri): Promise<void> {
  const { snapshot } = e.spec;
  // A new spec.md is in the user's language, as New Feature writes it; the other files follow the spec's.
  const language = file === 'spec.md' ? displayLanguage() : specLanguage(snapshot);
  const text = starterText(file, { name: snapshot.name, pipelineType: e.spec.pipelineType }, language);
  const doc = await vscode.workspace.openTextDocument(untitled);
  const editor = await vscode.window.showTextDocument(doc);
  // An unsaved editor already open at that path keeps what the user typed there.
  if (text && doc.getText() === '') await editor.edit((b) => b.insert(new vscode.Position(0, 0), text));
}

/** A message that does not wait for its buttons: commands never block on a toast. */
export function notify(kind: 'info' | 'warning' | 'error', message: string, actions: { title: string; run: () => void }[] = []): void {
  const show = kind === 'info' ? vscode.window.showInformationMessage : kind === 'warning' ? vscode.window.showWarningMessage : vscode.window.showErrorMessage;
  void show(message, ...actions.map((a) => a.title)).then((choice) => actions.find((a) => a.title === choice)?.run());
}

/** Maps every error of the core to a clear message; the details go to the log. */
function report(ctx: CommandContext, id: string, e: unknown, entry: SpecEntry | undefined): CommandOutcome {
  const log = ctx.log.component(id);
  if (e instanceof TransitionRefusedError) {
    notify('warning', e.reasons.length ? `${e.message}: ${e.reasons.join('; ')}` : e.message);
    return { status: 'refused', message: e.message, reasons: e.reasons };
  }
  if (e instanceof UntrustedWorkspaceError) {
    notify('warning', e.message, [{ title: t('host.chat.manageWorkspaceTrust'), run: () => void vscode.commands.executeCommand('workbench.trust.manage') }]);
    return { status: 'refused', message: e.message, reasons: [] };
  }
  if (e instanceof SpecLockedError) {
    notify('warning', e.message);
    return { status: 'refused', message: e.message, reasons: [] };
  }
  if (e instanceof CorruptStateError) {
    log.error(e.message);
    const file = e.file;
    notify(
      'error',
      e.message,
      file && entry
        ? [{ title: t('host.commands.open', { file: file.split('/').pop() ?? file }), run: () => void vscode.commands.executeCommand('vscode.open', vscode.Uri.joinPath(entry.folder.uri, file)) }]
        : [],
    );
    return { status: 'failed', message: e.message };
  }
  if (e instanceof LoomError) {
    log.error(e.message);
    ctx.log.showError(e.message);
    return { status: 'failed', message: e.message };
  }
  log.error('unexpected error', e);
  ctx.log.showError(t('host.commands.loomFailed', { id, message: e instanceof Error ? e.message : String(e) }));
  return { status: 'failed', message: e instanceof Error ? e.message : String(e) };
}

export interface CommandOptions {
  /** The command acts on one spec, resolved before `run` is called. */
  spec: boolean;
  /** The command writes files: refused in an untrusted workspace. */
  writes: boolean;
  /** Shown on the quick pick when the spec has to be asked for. */
  placeHolder?: string;
  /** Why a write is refused in an untrusted workspace, in this command's words (else the general sentence). */
  untrusted?: string;
}

export type CommandRun = (args: CommandArgs, entry: SpecEntry | undefined) => Promise<CommandOutcome> | CommandOutcome;

/**
 * What every command shares: refuses a write in an untrusted workspace, then runs `body`, and
 * reports what it throws as a clear message (the spec it found, if any, for the message's buttons).
 */
async function guarded(
  ctx: CommandContext,
  id: string,
  options: Pick<CommandOptions, 'writes' | 'untrusted'>,
  body: (found: { entry?: SpecEntry }) => Promise<CommandOutcome>,
): Promise<CommandOutcome> {
  const found: { entry?: SpecEntry } = {};
  let outcome: CommandOutcome;
  try {
    if (options.writes && !ctx.trust.writable) throw new UntrustedWorkspaceError(options.untrusted);
    outcome = await body(found);
  } catch (e) {
    outcome = report(ctx, id, e, found.entry);
  }
  // Every refusal is in the log, once, whichever command refused and however it told the user.
  if (outcome.status === 'refused')
    ctx.log.component(id.replace(/^loom\./, '')).info(`${found.entry ? `${found.entry.spec.snapshot.specDir}: ` : ''}${outcome.message}${outcome.reasons.map((r) => `\n  - ${r}`).join('')}`);
  return outcome;
}

/**
 * The one wrapper every command goes through: resolves the target spec, refuses writes in an
 * untrusted workspace, catches and logs errors and shows them as clear messages.
 */
export function createCommand(ctx: CommandContext, id: string, options: CommandOptions, run: CommandRun): vscode.Disposable {
  return vscode.commands.registerCommand(id, (arg?: unknown): Promise<CommandOutcome> =>
    guarded(ctx, id, options, async (found) => {
      const { args, dir, uri } = argsOf(arg);
      if (options.spec) {
        found.entry = await resolveSpec(ctx, dir, uri, options.placeHolder ?? t('host.commands.whichSpec'));
        if (!found.entry) return cancelled;
      }
      ctx.log.component('commands').debug(`${id}${found.entry ? ` ${found.entry.spec.snapshot.specDir}` : ''}`);
      return await run(args, found.entry);
    }),
  );
}

/**
 * createCommand for a command that takes no spec but what VS Code hands it (a comment thread or
 * reply, a preview's draft): the same trust check, log and error report, with the argument as is.
 */
export function createArgumentCommand<A>(
  ctx: CommandContext,
  id: string,
  options: Pick<CommandOptions, 'writes' | 'untrusted'>,
  run: (arg: A) => Promise<CommandOutcome> | CommandOutcome,
): vscode.Disposable {
  return vscode.commands.registerCommand(id, (arg: A): Promise<CommandOutcome> =>
    guarded(ctx, id, options, async () => {
      ctx.log.component('commands').debug(id);
      return await run(arg);
    }),
  );
}
