// Loaded by the entry (src/extensionEntry.ts, dist/extension.js) with V8's code cache.
import * as vscode from 'vscode';
import './host/displayLanguage';
import { registerDraftCommands } from './host/chat/draftCommands';
import { LoomChatParticipant } from './host/chat/loomParticipant';
import { PendingDraftStore } from './host/chat/pendingDrafts';
import { RefineCommand } from './host/comments/refineChat';
import { registerReviewCommands } from './host/comments/reviewCommands';
import { ReviewThreads } from './host/comments/reviewThreads';
import { registerPipelineCommands } from './host/commands/pipelineCommands';
import { registerWorkspaceCommands } from './host/commands/workspaceCommands';
import { registerMcpJsonCommand } from './host/commands/mcpJsonCommand';
import { LoomConfig } from './host/config';
import { LoomDiagnostics } from './host/diagnostics';
import { registerExecutingCommands } from './host/executing/executingCommands';
import { FindingCodeActions } from './host/findings/findingCodeActions';
import { registerFindingCommands } from './host/findings/findingCommands';
import { PromptPresets } from './host/executing/promptPresets';
import { registerTranscriptCommands } from './host/executing/transcriptCommands';
import { registerTaskReviewCommands } from './host/executing/taskReviewCommands';
import { TaskThreads } from './host/executing/taskThreads';
import { registerTaskThreadCommands } from './host/executing/taskThreadCommands';
import { registerWorktreeCommands } from './host/git/worktreeCommands';
import { registerVerifyCommand } from './host/pipelineRun/verifyCommand';
import { registerSyncCommand } from './host/pipelineRun/syncCommand';
import { registerDriftCommands } from './host/drift/driftCommands';
import { ReconcileCommand } from './host/drift/reconcileChat';
import { ActiveRunsFile } from './host/pipelineRun/activeRuns';
import { RunStopsFile } from './core/port/pipelineRun';
import { PipelineRuns } from './host/pipelineRun/pipelineRuns';
import { registerPipelineRunCommands } from './host/pipelineRun/pipelineRunCommands';
import { RunChatCommand } from './host/chat/runChatCommand';
import { LoomTools } from './host/lmTools/loomTools';
import { Log } from './host/log';
import { LoomMcpServers, MCP_PROVIDER_ID } from './host/mcpServers';
import { extensionSpecCache } from './host/specs/specCacheStorage';
import { SpecRegistry } from './host/specs/specRegistry';
import { LoomStatusBar } from './host/statusBar';
import type { SpecTreeProvider } from './host/tree/specTreeProvider';
import { SpecsView } from './host/tree/specsView';
import { WorkspaceTrust } from './host/trust';
import { registerViewCommands } from './host/webviews/viewCommands';
import { webviewMessageHandler } from './host/webviews/webviewMessages';
import { WebviewPanels } from './host/webviews/webviewPanels';
import { languageModelToolNames, registerSetupCommands, SetupCheck } from './host/setup/setupCheck';
import { threadClock, type ThreadClock } from './host/threadClock';
import { SpecDrifts } from './host/drift/specDrifts';

/** What activate() returns: for integration tests and for extensions that build on Loom. */
export interface LoomApi {
  registry: SpecRegistry;
  tree: SpecTreeProvider;
  view: SpecsView;
  diagnostics: LoomDiagnostics;
  statusBar: LoomStatusBar;
  /** The dashboard and traceability-matrix panels that are open. */
  webviews: WebviewPanels;
  /** Drafts @loom proposed in the chat and the user has not written yet. */
  drafts: PendingDraftStore;
  /** The `@loom` chat participant. */
  chat: LoomChatParticipant;
  /** The MCP server definitions offered to VS Code (`loom-vscode mcp` per folder with loom files). */
  mcpServers: LoomMcpServers;
  /** The language-model tools (`#loomStatus`, `#loomAdvance`, …), by name. */
  lmTools: LoomTools;
  /** The comment threads of spec reviews (review-comments.json). */
  review: ReviewThreads;
  /** The comment threads on tasks' changes (task-reviews/TN.json). */
  taskThreads: TaskThreads;
  /** Loom: Run Pipeline's runs: under way, and where each stopped (its status bar item). */
  runs: PipelineRuns;
  /** The drift of synced specs, read again when git's HEAD moves. */
  drifts: SpecDrifts;
  /** The one "Loom" output channel every component logs to. */
  log: Log;
  /** performance.now() marks of loading and activation, for the benchmarks (`npm run bench`). */
  timings: LoadClock & { activatedAt: number; extensionActivatedAt: number };
  /** Only when the extension runs its tests: answers queued for the executing loop's questions. */
  testHooks?: { prompts: PromptPresets };
}

/**
 * The entry's marks (performance.now()): its first line and its last (bundleStartedAt,
 * bundleLoadedAt); activateStartedAt, when VS Code called its activate(), and activatedAt, when
 * that returned. It loads this bundle (extensionStartedAt → extensionLoadedAt, with V8's code
 * cache: `codeCache` says whether V8 took it) and calls the activate() below, which ends at
 * extensionActivatedAt: within the entry's activate(), or a moment after it (`deferred`, in a
 * window opened on a loom repository: see src/extensionEntry.ts).
 */
export interface LoadClock {
  bundleStartedAt: number;
  bundleLoadedAt: number;
  activateStartedAt: number;
  /** Set by the entry when it returned before the extension started (`deferred`); otherwise the end of the activate() below. */
  activatedAt?: number;
  deferred: boolean;
  extensionStartedAt?: number;
  extensionLoadedAt?: number;
  codeCache?: boolean;
  /** The host thread's run and wait times (threadClock) at bundleStartedAt, bundleLoadedAt, activateStartedAt and activatedAt. */
  threadAtStart?: ThreadClock;
  threadAtLoaded?: ThreadClock;
  threadAtActivate?: ThreadClock;
  threadAtActivated?: ThreadClock;
}

/** Wires the services; the workspace is read after activation returns, when the view asks for its rows. */
export function activate(context: vscode.ExtensionContext, clock: LoadClock): LoomApi {
  const config = new LoomConfig();
  const log = new Log(() => config.logLevel);
  const trust = new WorkspaceTrust();
  const registry = new SpecRegistry(config, log, extensionSpecCache(context));
  const view = new SpecsView(registry, trust);
  const diagnostics = new LoomDiagnostics(registry, log);
  const findingActions = new FindingCodeActions(registry, diagnostics, log);
  const statusBar = new LoomStatusBar(registry, view, config);
  const webviews = new WebviewPanels(registry, log, context.extensionUri);
  webviews.setMessageHandler(webviewMessageHandler(registry, webviews, log.component('webviews'), context.workspaceState));
  const ctx = { registry, view, log, trust, config };
  const storageDir = (context.storageUri ?? context.globalStorageUri).fsPath;
  const drafts = new PendingDraftStore();
  const review = new ReviewThreads(registry, config, log);
  const taskThreads = new TaskThreads(registry, config, log);
  const refine = new RefineCommand(ctx, drafts, review);
  view.provider.setReviewCounts(review);
  const runs = new PipelineRuns(ctx, new ActiveRunsFile(context.globalStorageUri.fsPath), new RunStopsFile(context.globalStorageUri.fsPath));
  view.followPipelineRuns(runs);
  const drifts = new SpecDrifts(registry, log.component('drift'));
  view.provider.setDriftMarks(drifts);
  const chat = new LoomChatParticipant(ctx, drafts, [refine, new RunChatCommand(), new ReconcileCommand(ctx, drafts, drifts)]);
  const lmTools = new LoomTools(ctx);
  const mcpServers = new LoomMcpServers(registry, config, trust, context.extensionUri.fsPath, String(context.extension.packageJSON.version ?? ''));
  const presets = context.extensionMode === vscode.ExtensionMode.Test ? new PromptPresets() : undefined;
  const setup = new SetupCheck(ctx, { access: context.languageModelAccessInformation, tools: languageModelToolNames(context) });
  context.subscriptions.push(
    config,
    log,
    trust,
    registry,
    view,
    diagnostics,
    findingActions,
    statusBar,
    webviews,
    ...registerPipelineCommands(ctx),
    ...registerWorkspaceCommands(ctx),
    ...registerMcpJsonCommand(ctx),
    ...registerWorktreeCommands(ctx),
    ...registerVerifyCommand(ctx),
    ...registerSyncCommand(ctx),
    ...registerDriftCommands(ctx, drifts),
    ...registerPipelineRunCommands(ctx, runs, setup),
    ...registerFindingCommands(ctx, presets),
    ...registerExecutingCommands(ctx, { storageDir, presets, stops: runs }),
    ...registerTranscriptCommands(ctx, storageDir),
    ...registerTaskReviewCommands(ctx, storageDir),
    taskThreads,
    ...registerTaskThreadCommands(ctx, taskThreads),
    ...registerViewCommands(ctx, webviews),
    drafts,
    chat,
    ...registerDraftCommands(ctx, drafts),
    review,
    refine,
    ...registerReviewCommands(ctx, review, refine, drafts),
    chat.register(context.extensionUri),
    lmTools,
    mcpServers,
    drifts,
    vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, mcpServers),
    ...registerSetupCommands(ctx, setup),
  );
  // Runs a window reload interrupted go on from where loom's files say they are.
  if (trust.writable) void runs.resume();
  log.component('extension').info(`activated (VS Code ${vscode.version}, ${vscode.workspace.workspaceFolders?.length ?? 0} folder(s), ${trust.writable ? 'trusted' : 'restricted'})`);
  // Not now: VS Code is still starting the window (see SpecRegistry.startSoon).
  registry.startSoon();
  const extensionActivatedAt = performance.now();
  const timings = { ...clock, activatedAt: clock.activatedAt ?? extensionActivatedAt, threadAtActivated: clock.threadAtActivated ?? threadClock(), extensionActivatedAt };
  return {
    timings,
    registry,
    tree: view.provider,
    view,
    diagnostics,
    statusBar,
    webviews,
    drafts,
    chat,
    mcpServers,
    lmTools,
    review,
    taskThreads,
    runs,
    drifts,
    log,
    ...(presets ? { testHooks: { prompts: presets } } : {}),
  };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
