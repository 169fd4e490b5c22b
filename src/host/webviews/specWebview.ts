import * as vscode from 'vscode';
import { buildDashboardModel, buildMatrixModel } from '../../core/port/views';
import { dashboardRuns } from '../pipelineRun/dashboardRuns';
import { dashboardDrifts } from '../drift/dashboardDrifts';
import { nodeCrypto } from '../../core/port/files';
import type { HostMessage, ViewKind, ViewModel, WebviewMessage } from '../../shared/protocol';
import { parseWebviewMessage } from '../../shared/protocolSchema';
import { renderWebviewHtml, WEBVIEW_BUNDLES } from '../../shared/webviewHtml';
import { displayLanguage, t } from '../../core/port/messages';
import { splitSpecName } from '../format';
import { Disposable } from '../lifecycle';
import type { ComponentLog } from '../log';
import type { SpecEntry, SpecRegistry } from '../specs/specRegistry';

/** The build folder: the only place a webview may load anything from. */
export const webviewRoot = (extensionUri: vscode.Uri) => vscode.Uri.joinPath(extensionUri, 'dist', 'webview');

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: [webviewRoot(extensionUri)] };
}

/** A hidden panel's page is discarded and says `ready` again when shown: cheaper than keeping it. */
export const panelOptions = (extensionUri: vscode.Uri): vscode.WebviewOptions & vscode.WebviewPanelOptions => ({ ...webviewOptions(extensionUri), retainContextWhenHidden: false });

export type MessageHandler = (view: SpecWebview, message: Exclude<WebviewMessage, { type: 'ready' }>) => Promise<void>;

/** How many posted messages a view remembers (for tests and the log). */
const POSTED_KEPT = 20;

/**
 * One webview panel showing one spec (its dashboard or its traceability matrix). It posts
 * nothing before the page says `ready`; every `ready` (a first load, or a reload after the panel
 * was hidden, since its context is not retained) gets an `init` with a fresh model, and changes of
 * the spec get an `update` while the page is there to receive it.
 */
export class SpecWebview extends Disposable {
  private readonly _onDidDispose = this._register(new vscode.EventEmitter<void>());
  readonly onDidDispose = this._onDidDispose.event;
  private pageReady = false;
  private readonly readyWaiters: (() => void)[] = [];
  /** The last messages posted, newest last. */
  readonly posted: HostMessage[] = [];

  constructor(
    readonly panel: vscode.WebviewPanel,
    readonly kind: ViewKind,
    /** Absolute spec directory; when the spec is gone the view says so. */
    readonly dir: string,
    private readonly registry: SpecRegistry,
    private readonly log: ComponentLog,
    extensionUri: vscode.Uri,
    private readonly handle: MessageHandler,
  ) {
    super();
    const webview = panel.webview;
    webview.options = webviewOptions(extensionUri);
    const asset = (p: string) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...p.split('/'))).toString();
    const entry = this.entry;
    panel.title = this.title(entry);
    webview.html = renderWebviewHtml({
      view: kind,
      cspSource: webview.cspSource,
      nonce: nodeCrypto().randomBytes(16).toString('base64'),
      scriptUri: asset(WEBVIEW_BUNDLES[kind].script),
      styleUri: asset(WEBVIEW_BUNDLES[kind].style),
      title: panel.title,
      language: displayLanguage(),
    });
    this._register(webview.onDidReceiveMessage((data: unknown) => void this.receive(data)));
    this._register(
      panel.onDidChangeViewState(() => {
        if (!panel.visible) this.pageReady = false;
      }),
    );
    this._register(
      registry.onDidChange((e) => {
        if (e.all || e.changed.includes(dir) || e.removed.includes(dir)) this.refresh('update');
      }),
    );
    this._register(panel.onDidDispose(() => this.dispose()));
    // A spec's drift is read when HEAD moves, not when its files change: its dashboard redraws then too.
    const drift = dashboardDrifts.provider?.onDidChange((changed) => changed === dir && this.refresh('update'));
    if (drift) this._register(drift);
    // Where a run stopped is kept beside the spec, not in its files: the dashboard redraws when the runs say so.
    const runs = dashboardRuns.provider?.onDidChange((changed) => changed === dir && this.refresh('update'));
    if (runs) this._register(runs);
  }

  get entry(): SpecEntry | undefined {
    return this.registry.entry(this.dir);
  }

  get isReady(): boolean {
    return this.pageReady;
  }

  /** Resolves once the page has said `ready` (now, if it already has). */
  whenReady(): Promise<void> {
    return this.pageReady ? Promise.resolve() : new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  reveal(): void {
    this.panel.reveal();
  }

  private title(entry: SpecEntry | undefined): string {
    const feature = splitSpecName(entry?.spec.snapshot.name ?? this.dir.split(/[\\/]/).pop() ?? '').feature;
    return this.kind === 'dashboard' ? t('host.webviews.loom', { feature }) : t('host.webviews.traceability', { feature });
  }

  /** Handles one message from the page: validated first, invalid ones are logged and ignored. */
  async receive(data: unknown): Promise<void> {
    const parsed = parseWebviewMessage(data);
    if (!parsed.ok) {
      this.log.warn(`${this.kind} ${this.dir}: ignored an invalid message (${parsed.error})`);
      return;
    }
    const message = parsed.message;
    if (message.type === 'ready') {
      if (message.view !== this.kind) {
        this.log.warn(`${this.kind} ${this.dir}: ignored ready from a ${message.view} page`);
        return;
      }
      this.pageReady = true;
      for (const resolve of this.readyWaiters.splice(0)) resolve();
      this.refresh('init');
      return;
    }
    this.log.debug(`${this.kind} ${this.dir}: ${message.type}`);
    try {
      await this.handle(this, message);
    } catch (e) {
      this.log.error(`${message.type} failed`, e);
      void vscode.window.showErrorMessage(t('host.commands.loomFailed', { id: message.type, message: e instanceof Error ? e.message : String(e) }));
    }
  }

  private model(entry: SpecEntry): ViewModel {
    if (this.kind !== 'dashboard') return buildMatrixModel(entry.spec.snapshot);
    const run = dashboardRuns.of(entry.dir);
    const drift = dashboardDrifts.of(entry.dir);
    return { ...buildDashboardModel(entry.spec), ...(run ? { run } : {}), ...(drift ? { drift } : {}) };
  }

  /** Posts the spec's model (or why there is none) if the page is listening. */
  private refresh(type: 'init' | 'update'): void {
    if (!this.pageReady || this.isDisposed) return;
    const entry = this.entry;
    if (!entry) {
      this.post({ type: 'unavailable', message: t('host.webviews.specNoLongerExists') });
      return;
    }
    this.panel.title = this.title(entry);
    let model: ViewModel;
    try {
      model = this.model(entry);
    } catch (e) {
      this.log.error(`${this.kind} ${this.dir}: the model could not be built`, e);
      this.post({ type: 'unavailable', message: t('host.webviews.specCouldNotReadSee') });
      return;
    }
    this.post({ type, model, language: displayLanguage() } as HostMessage);
  }

  private post(message: HostMessage): void {
    this.posted.push(message);
    if (this.posted.length > POSTED_KEPT) this.posted.shift();
    void this.panel.webview.postMessage(message);
  }

  override dispose(): void {
    if (this.isDisposed) return;
    this._onDidDispose.fire();
    super.dispose();
    this.panel.dispose();
  }
}
