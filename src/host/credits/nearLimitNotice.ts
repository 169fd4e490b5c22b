import { formatCredits } from '../../core/port/credits';
import { t } from '../../core/port/messages';

/** The part of `vscode.window` the notice needs: a fake one in tests. */
export interface NoticeWindow {
  showWarningMessage(message: string, ...items: string[]): Thenable<string | undefined>;
}

/** Runs a VS Code command: `vscode.commands.executeCommand` in the extension. */
export type RunCommand = (command: string, ...args: unknown[]) => Thenable<unknown>;

/**
 * The warning at 80 % of `loom.budget.credits`, as a person sees it: a warning notification with
 * Open Dashboard (what the run spent, per task) and Open Settings (the budget), once per run. The
 * log line alone went unread (issue 49).
 */
export class NearLimitNotice {
  private shown = false;

  constructor(
    private readonly window: NoticeWindow,
    private readonly run: RunCommand,
    /** The spec the run is for: the dashboard opens on it. */
    private readonly specDir: string,
    private readonly feature: string,
  ) {}

  /** Said at the first call of a run; later calls of the same run say nothing. */
  async show(used: number, budget: number): Promise<void> {
    if (this.shown) return;
    this.shown = true;
    const dashboard = t('host.chat.openDashboard');
    const settings = t('host.pipelineRun.openSettings');
    const text = t('credits.nearLimitNotice', { feature: this.feature, used: formatCredits(used), budget: formatCredits(budget), percent: Math.floor((used / budget) * 100) });
    const picked = await this.window.showWarningMessage(text, dashboard, settings);
    if (picked === dashboard) await this.run('loom.openDashboard', { specDir: this.specDir });
    else if (picked === settings) await this.run('workbench.action.openSettings', 'loom.budget.credits');
  }
}
