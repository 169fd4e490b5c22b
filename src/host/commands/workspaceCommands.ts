import { join, resolve } from 'node:path';
import * as vscode from 'vscode';
import { LoomError } from '../../core/port/errors';
import { PIPELINE_STATE_FILE } from '../../core/port/vocabulary';
import { createSpec, specDate, specSlug } from '../../core/port/specs';
import type { SpecEntry } from '../specs/specRegistry';
import { stateProblem } from '../tree/treeItems';
import { cancelled, createCommand, notify, type CommandArgs, type CommandContext, type CommandOutcome } from './createCommand';
import { displayLanguage, t } from '../../core/port/messages';

async function pickFolder(ctx: CommandContext, args: CommandArgs): Promise<vscode.WorkspaceFolder | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (args.folder) {
    const wanted = args.folder;
    const found = folders.find((f) => f.name === wanted || resolve(f.uri.fsPath) === resolve(wanted));
    if (!found) throw new LoomError(t('host.commands.notFolderWorkspace', { wanted }));
    return found;
  }
  if (folders.length <= 1) return folders[0];
  // The folder of the spec in focus: a selection left in a hidden tree is not taken, as for every command.
  return ctx.view.specInFocus()?.folder ?? vscode.window.showWorkspaceFolderPick({ placeHolder: t('host.commands.whereShouldNewFeatureLive') });
}

/**
 * Loom: New Feature. Asks for a name and starts `specs/<YYYY-MM-DD>+<slug>/` the way loom does
 * (pipeline.state.json at the pipeline's first stage, progress.md) with a spec.md template in the
 * user's language, shows it in the tree, opens spec.md and offers `@loom /brainstorm`.
 */
async function newFeature(ctx: CommandContext, args: CommandArgs): Promise<CommandOutcome> {
  await ctx.registry.start();
  const folder = await pickFolder(ctx, args);
  if (!folder) {
    notify('info', t('host.commands.openFolderFirstLoomKeeps'));
    return cancelled;
  }
  const folderSpecs = ctx.registry.folderSpecs().find((f) => f.folder.uri.toString() === folder.uri.toString());
  if (!folderSpecs) return cancelled;
  const specRoot = folderSpecs.specRoots[0] ?? 'specs';
  const name =
    args.name ??
    (await vscode.window.showInputBox({
      title: t('host.chat.loomNewFeature'),
      prompt: t('host.commands.nameFeatureAnyLanguageBecomes'),
      placeHolder: t('host.commands.eGUserLogin'),
      ignoreFocusOut: true,
      validateInput: (v) => {
        const slug = specSlug(v);
        if (!v.trim()) return undefined;
        if (!slug) return t('host.commands.nameNeedsAtLeastOne');
        return { message: t('host.commands.creates', { folder: `${specRoot}/${specDate(new Date())}+${slug}/` }), severity: vscode.InputBoxValidationSeverity.Info };
      },
    }));
  if (!name?.trim()) return cancelled;
  const repo = folderSpecs.repository;
  const pipelineType = repo.defaultPipelineType;
  const language = displayLanguage();
  const created = createSpec(folder.uri.fsPath, name, new Date(), { specRoot, pipelineType, stage: repo.definition(pipelineType).initial, definition: repo.definition(pipelineType), language });
  ctx.log.component('newFeature').info(`created ${created.specDir} in ${folder.name}`);
  // A new spec: its row is read now, not when the folder goes quiet.
  folderSpecs.settleNow(created.dir);
  // Both awaited: when the command is done, the new spec is the one in focus (selected, its
  // spec.md open), so the @loom /brainstorm it offers, or a command run next, is about it. The
  // toast comes with the editor: a view opened for the first time takes seconds to draw.
  const revealed = ctx.view.reveal(created.dir);
  await vscode.window.showTextDocument(vscode.Uri.file(join(created.dir, 'spec.md')), { preview: false });
  notify('info', t('host.commands.createdDescribeFeatureLoomBrainstorm', { specDir: created.specDir }), [
    { title: t('host.commands.draftLoomBrainstorm'), run: () => void vscode.commands.executeCommand('workbench.action.chat.open', { query: '@loom /brainstorm ', isPartialQuery: true }) },
  ]);
  await revealed;
  return { status: 'done', specDir: created.dir };
}

async function filter(ctx: CommandContext, args: CommandArgs): Promise<CommandOutcome> {
  if (args.clear) {
    ctx.view.setFilter({});
    return { status: 'done' };
  }
  if (args.text !== undefined || args.stage !== undefined) {
    ctx.view.setFilter({ text: args.text, stage: args.stage });
    return { status: 'done' };
  }
  const current = ctx.view.provider.filter;
  const choice = await vscode.window.showQuickPick(
    [
      { label: `$(search) ${t('host.commands.filterText')}`, id: 'text' },
      { label: `$(list-filter) ${t('host.commands.filterStage')}`, id: 'stage' },
      ...(current.text || current.stage ? [{ label: `$(clear-all) ${t('host.commands.clearFilter')}`, id: 'clear' }] : []),
    ],
    { title: t('host.commands.loomFilterSpecs') },
  );
  if (!choice) return cancelled;
  if (choice.id === 'clear') ctx.view.setFilter({});
  else if (choice.id === 'text') {
    const text = await vscode.window.showInputBox({ prompt: t('host.commands.showSpecsWhoseNameStage'), value: current.text ?? '' });
    if (text === undefined) return cancelled;
    ctx.view.setFilter({ ...current, text });
  } else {
    const stage = await vscode.window.showQuickPick(
      [{ label: t('host.commands.anyStage'), stage: undefined as string | undefined }, ...ctx.view.provider.knownStages().map((s) => ({ label: s, stage: s as string | undefined }))],
      { placeHolder: t('host.commands.showSpecsAtStage') },
    );
    if (!stage) return cancelled;
    ctx.view.setFilter({ ...current, stage: stage.stage });
  }
  return { status: 'done' };
}

/** Loom: Open pipeline.state.json at the Error: where a spec that needs attention stops being readable. */
async function openStateFile(entry: SpecEntry): Promise<CommandOutcome> {
  const problem = stateProblem(entry);
  const uri = vscode.Uri.joinPath(entry.uri, PIPELINE_STATE_FILE);
  const at = problem ? new vscode.Position(problem.line - 1, problem.column - 1) : new vscode.Position(0, 0);
  await vscode.window.showTextDocument(uri, { selection: new vscode.Range(at, at), preview: false });
  return { status: 'done', specDir: entry.dir, uri: uri.toString() };
}

export function registerWorkspaceCommands(ctx: CommandContext): vscode.Disposable[] {
  return [
    createCommand(ctx, 'loom.openStateFile', { spec: true, writes: false }, (_a, e) => openStateFile(e!)),
    createCommand(ctx, 'loom.newFeature', { spec: false, writes: true }, (a) => newFeature(ctx, a)),
    createCommand(ctx, 'loom.refresh', { spec: false, writes: false }, async () => {
      await ctx.registry.start();
      ctx.registry.rescan();
      return { status: 'done' };
    }),
    createCommand(ctx, 'loom.showLog', { spec: false, writes: false }, () => {
      ctx.log.show();
      return { status: 'done' };
    }),
    createCommand(ctx, 'loom.filter', { spec: false, writes: false }, (a) => filter(ctx, a)),
    createCommand(ctx, 'loom.clearFilter', { spec: false, writes: false }, () => filter(ctx, { clear: true })),
  ];
}
