import * as vscode from 'vscode';
import { Disposable } from './lifecycle';

/** Mirrors `contributes.configuration` in package.json: one typed getter per setting. */
export type ConfirmationStyle = 'modal' | 'quickPick';
export type LogLevelSetting = 'trace' | 'debug' | 'info' | 'warning' | 'error';
export type ExecutionModeSetting = 'auto' | 'subagent' | 'direct';

export interface LoomSettings {
  specRoots: string[];
  confirmation: ConfirmationStyle;
  logLevel: LogLevelSetting;
  debounceMs: number;
  statusBarEnabled: boolean;
  modelVendor: string;
  modelFamilies: { fast: string; standard: string; strongest: string };
  executionMode: ExecutionModeSetting;
  parallelDispatch: boolean;
  tokenBudget: number;
  testCommand: string;
  worktreeLocation: string;
  inspectMachines: boolean;
  reviewAuthor: string;
  /** Only its change event lives here: the value is the team's rule, read per folder (FolderSpecs), as each folder's settings may differ. */
  blockOnOpenThreads: boolean;
  /** As blockOnOpenThreads: `loom.approvals.requirePerson`, read per folder; only its change event lives here. */
  requirePerson: boolean;
}

const SECTION = 'loom';
const DEFAULT_SPEC_ROOTS = ['specs', 'qa'];

/** A spec root is a folder name directly under the workspace folder: loom looks nowhere else. */
const validRoot = (r: unknown): r is string => typeof r === 'string' && /^[^/\\]+$/.test(r.trim()) && !r.trim().startsWith('.');

export class LoomConfig extends Disposable {
  private readonly _onDidChange = this._register(new vscode.EventEmitter<ReadonlySet<keyof LoomSettings>>());
  /** Fires with the settings that changed; listeners ignore the keys they do not use. */
  readonly onDidChange = this._onDidChange.event;

  private static readonly KEYS: ReadonlyArray<[keyof LoomSettings, string[]]> = [
    ['specRoots', ['specRoots']],
    ['confirmation', ['confirmation']],
    ['logLevel', ['logLevel']],
    ['debounceMs', ['watcher.debounceMs']],
    ['statusBarEnabled', ['statusBar.enabled']],
    ['modelVendor', ['models.vendor']],
    ['modelFamilies', ['models.fast', 'models.standard', 'models.strongest']],
    ['executionMode', ['executing.mode']],
    ['parallelDispatch', ['executing.parallel']],
    ['tokenBudget', ['executing.tokenBudget']],
    ['testCommand', ['executing.testCommand']],
    ['worktreeLocation', ['worktree.location']],
    ['inspectMachines', ['debug.inspectMachines']],
    ['reviewAuthor', ['review.author']],
    ['blockOnOpenThreads', ['review.blockOnOpenThreads']],
    ['requirePerson', ['approvals.requirePerson']],
  ];

  constructor() {
    super();
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        const changed = new Set<keyof LoomSettings>();
        for (const [key, names] of LoomConfig.KEYS) if (names.some((n) => e.affectsConfiguration(`${SECTION}.${n}`))) changed.add(key);
        if (changed.size) this._onDidChange.fire(changed);
      }),
    );
  }

  private get raw(): vscode.WorkspaceConfiguration {
    return vscode.workspace.getConfiguration(SECTION);
  }

  get specRoots(): string[] {
    const roots = this.raw.get<unknown[]>('specRoots', DEFAULT_SPEC_ROOTS);
    const valid = Array.isArray(roots) ? [...new Set(roots.filter(validRoot).map((r) => r.trim()))] : [];
    return valid.length ? valid : DEFAULT_SPEC_ROOTS;
  }

  get confirmation(): ConfirmationStyle {
    return this.raw.get<string>('confirmation') === 'quickPick' ? 'quickPick' : 'modal';
  }

  get logLevel(): LogLevelSetting {
    const v = this.raw.get<string>('logLevel', 'info');
    return (['trace', 'debug', 'info', 'warning', 'error'] as const).find((l) => l === v) ?? 'info';
  }

  get debounceMs(): number {
    const v = this.raw.get<number>('watcher.debounceMs', 150);
    return Number.isFinite(v) ? Math.min(Math.max(v, 0), 5000) : 150;
  }

  get statusBarEnabled(): boolean {
    return this.raw.get<boolean>('statusBar.enabled', true) !== false;
  }

  get modelVendor(): string {
    return this.raw.get<string>('models.vendor', '') ?? '';
  }

  get modelFamilies(): LoomSettings['modelFamilies'] {
    return {
      fast: this.raw.get<string>('models.fast', '') ?? '',
      standard: this.raw.get<string>('models.standard', '') ?? '',
      strongest: this.raw.get<string>('models.strongest', '') ?? '',
    };
  }

  get executionMode(): ExecutionModeSetting {
    const v = this.raw.get<string>('executing.mode', 'auto');
    return v === 'subagent' || v === 'direct' ? v : 'auto';
  }

  get parallelDispatch(): boolean {
    return this.raw.get<boolean>('executing.parallel', false) === true;
  }

  /** Per-spec token budget of the executing stage; 0 means none. */
  get tokenBudget(): number {
    const v = this.raw.get<number>('executing.tokenBudget', 0);
    return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0;
  }

  /** `loom.budget.credits`: AI credits a spec's run may spend; 0 means none. */
  get creditBudget(): number {
    const v = this.raw.get<number>('budget.credits', 0);
    return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0;
  }

  /** `loom.credits.prices`: the person's prices over Loom's table (validated where they are read). */
  get creditPrices(): unknown {
    return this.raw.get<unknown>('credits.prices', {});
  }

  /** The project's test command; empty means Loom detects it from the worktree. */
  get testCommand(): string {
    return (this.raw.get<string>('executing.testCommand', '') ?? '').trim();
  }

  /** `loom.debug.inspectMachines`: log every event and transition of every spec's actor. */
  get inspectMachines(): boolean {
    return this.raw.get<boolean>('debug.inspectMachines', false) === true;
  }

  /** Folder that holds feature worktrees (absolute, or relative to the repository); empty means loom's `.worktree/` in the repository. */
  get worktreeLocation(): string {
    return (this.raw.get<string>('worktree.location', '') ?? '').trim();
  }

  /** The name written on review comments; empty means the OS account's name. */
  get reviewAuthor(): string {
    return (this.raw.get<string>('review.author', '') ?? '').trim();
  }
}
