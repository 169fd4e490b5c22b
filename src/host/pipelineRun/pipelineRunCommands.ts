import * as vscode from 'vscode';
import type { RunMode } from '../../core/port/pipelineRun';
import { createCommand, type CommandContext } from '../commands/createCommand';
import type { PipelineRuns } from './pipelineRuns';
import type { SetupCheck } from '../setup/setupCheck';
import { t } from '../../core/port/messages';

/** `loom.pipelineRun.mode`: the mode a run starts in, or `ask` for the choice at each start. */
const MODE_SETTING = 'pipelineRun.mode';

/** The mode of a run: given by the caller, else the setting, else the person's choice (the setting's value first). */
async function chooseMode(given: string | undefined): Promise<RunMode | undefined> {
  if (given === 'supervised' || given === 'autopilot') return given;
  const setting = vscode.workspace.getConfiguration('loom').get<string>(MODE_SETTING, 'ask');
  if (setting === 'supervised' || setting === 'autopilot') return setting;
  const picked = await vscode.window.showQuickPick(
    [
      { label: t('host.pipelineRun.supervised'), detail: t('host.pipelineRun.showsEachStageSDrafts'), mode: 'supervised' as const },
      { label: t('host.pipelineRun.autopilot'), detail: t('host.pipelineRun.writesWhatPassesChecksStops'), mode: 'autopilot' as const },
    ],
    { placeHolder: t('host.pipelineRun.howShouldLoomRunPipeline') },
  );
  return picked?.mode;
}

/** Loom: Run Pipeline and Loom: Stop Pipeline (palette, tree, dashboard). */
export function registerPipelineRunCommands(ctx: CommandContext, runs: PipelineRuns, setup?: SetupCheck): vscode.Disposable[] {
  return [
    runs,
    createCommand(ctx, 'loom.runPipeline', { spec: true, writes: true, placeHolder: t('host.pipelineRun.runPipelineWhichSpec') }, async (a, e) => {
      // Check Setup's items this run needs before its next stop: it does not start without the first one missing.
      const missing = setup && !runs.isRunning(e!.dir) ? await setup.missingForRun(e!, new AbortController().signal) : undefined;
      if (missing) return setup!.refuseRun(missing);
      const mode = await chooseMode(a.mode);
      if (!mode) return { status: 'cancelled' };
      return runs.start(e!, mode);
    }),
    createCommand(ctx, 'loom.continuePipeline', { spec: true, writes: true, placeHolder: t('host.pipelineRun.continuePipelineRunWhichSpec') }, (_a, e) => runs.continue(e!.dir)),
    createCommand(ctx, 'loom.stopPipeline', { spec: true, writes: false, placeHolder: t('host.pipelineRun.stopPipelineRunWhichSpec') }, (_a, e) => runs.stop(e!.dir)),
  ];
}
