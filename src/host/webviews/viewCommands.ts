import * as vscode from 'vscode';
import { createCommand, type CommandContext } from '../commands/createCommand';
import type { WebviewPanels } from './webviewPanels';
import { t } from '../../core/port/messages';

/** Loom: Open Dashboard and Loom: Show Traceability Matrix, each for one spec. */
export function registerViewCommands(ctx: CommandContext, panels: WebviewPanels): vscode.Disposable[] {
  return [
    createCommand(ctx, 'loom.openDashboard', { spec: true, writes: false, placeHolder: t('host.webviews.dashboardWhichSpec') }, (_a, e) => {
      panels.open('dashboard', e!);
      return { status: 'done', specDir: e!.dir };
    }),
    createCommand(ctx, 'loom.showTraceability', { spec: true, writes: false, placeHolder: t('host.webviews.traceabilityWhichSpec') }, (_a, e) => {
      panels.open('matrix', e!);
      return { status: 'done', specDir: e!.dir };
    }),
  ];
}
