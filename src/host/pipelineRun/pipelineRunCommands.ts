import * as vscode from 'vscode';
import type { RunMode } from '../../core/port/pipelineRun';
import { createCommand, type CommandContext } from '../commands/createCommand';
import type { PipelineRuns } from './pipelineRuns';

/** `loom.pipelineRun.mode`: the mode a run starts in, or `ask` for the choice at each start. */
const MODE_SETTING = 'pipelineRun.mode';

/** The mode of a run: given by the caller, else the setting, else the person's choice (the setting's value first). */
async function chooseMode(given: string | undefined): Promise<RunMode | undefined> {
  if (given === 'supervised' || given === 'autopilot') return given;
  const setting = vscode.workspace.getConfiguration('loom').get<string>(MODE_SETTING, 'ask');
  if (setting === 'supervised' || setting === 'autopilot') return setting;
  const picked = await vscode.window.showQuickPick(
    [
      { label: vscode.l10n.t('Supervised'), detail: vscode.l10n.t("Shows each stage's drafts and waits for Write."), mode: 'supervised' as const },
      { label: vscode.l10n.t('Autopilot'), detail: vscode.l10n.t('Writes what passes the checks; stops at every gate a person decides.'), mode: 'autopilot' as const },
    ],
    { placeHolder: vscode.l10n.t('How should Loom run the pipeline?') },
  );
  return picked?.mode;
}

/** Loom: Run Pipeline and Loom: Stop Pipeline (palette, tree, dashboard). */
export function registerPipelineRunCommands(ctx: CommandContext, runs: PipelineRuns): vscode.Disposable[] {
  return [
    runs,
    createCommand(ctx, 'loom.runPipeline', { spec: true, writes: true, placeHolder: vscode.l10n.t('Run the pipeline of which spec?') }, async (a, e) => {
      const mode = await chooseMode(a.mode);
      if (!mode) return { status: 'cancelled' };
      return runs.start(e!, mode);
    }),
    createCommand(ctx, 'loom.continuePipeline', { spec: true, writes: true, placeHolder: vscode.l10n.t('Continue the pipeline run of which spec?') }, (_a, e) => runs.continue(e!.dir)),
    createCommand(ctx, 'loom.stopPipeline', { spec: true, writes: false, placeHolder: vscode.l10n.t('Stop the pipeline run of which spec?') }, (_a, e) => runs.stop(e!.dir)),
  ];
}
