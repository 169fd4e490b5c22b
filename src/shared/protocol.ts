/**
 * The one message protocol between the extension host and its two webviews (dashboard and
 * traceability matrix). It imports neither `vscode` nor the DOM: the host and the webview bundles
 * both use these types, and the host validates every incoming message with `protocolSchema.ts`.
 *
 * Order: the host creates the panel, the webview posts `ready`, the host answers with `init`, then
 * sends `update` whenever the spec's files change. `init` restores the UI state the webview saved
 * (a reload, a restored panel); `update` keeps the UI state the user has now.
 */
import type { DashboardModel } from './dashboardModel';
import type { MatrixModel } from './matrixModel';
import type { Language } from './messages/language';

export type { DashboardModel } from './dashboardModel';
export type { MatrixModel } from './matrixModel';

/** Bumped when a message changes shape; the webview sends it with `ready`. */
export const PROTOCOL_VERSION = 2;

export const VIEW_KINDS = ['dashboard', 'matrix'] as const;
export type ViewKind = (typeof VIEW_KINDS)[number];

export type ViewModel = DashboardModel | MatrixModel;
export type ModelOf<V extends ViewKind> = Extract<ViewModel, { kind: V }>;

// ---- host → webview ------------------------------------------------------------------------

export interface InitMessage<V extends ViewKind = ViewKind> {
  type: 'init';
  model: ModelOf<V>;
  /** The host's display language (VS Code's): the page words its own labels in it (English without one). */
  language?: Language;
}

export interface UpdateMessage<V extends ViewKind = ViewKind> {
  type: 'update';
  model: ModelOf<V>;
  language?: Language;
}

/** The spec can no longer be shown (its folder was removed or cannot be read). */
export interface UnavailableMessage {
  type: 'unavailable';
  message: string;
}

export type HostMessage<V extends ViewKind = ViewKind> = InitMessage<V> | UpdateMessage<V> | UnavailableMessage;

// ---- webview → host ------------------------------------------------------------------------

export interface ReadyMessage {
  type: 'ready';
  view: ViewKind;
  protocol: typeof PROTOCOL_VERSION;
}

/** Open a repository-relative file, at a line or at a named test when given. */
export interface OpenFileMessage {
  type: 'openFile';
  path: string;
  line?: number;
  testName?: string;
}

export const BREAKER_CHOICES = ['A', 'B', 'C'] as const;
export type BreakerChoice = (typeof BREAKER_CHOICES)[number];

/**
 * Run the same command as the palette, with the same confirmations. The host resolves the spec
 * from `specDir` (repository-relative) and never trusts anything else in the message.
 */
export type RunCommandMessage = { type: 'runCommand'; specDir: string } & (
  | { command: 'advance'; args?: { to?: string } }
  | { command: 'approve'; args?: { to?: string } }
  | { command: 'markFailed'; args?: undefined }
  /** Runs the current stage's validators, writing their reports, as Loom: Check Stage does. */
  | { command: 'checkStage'; args?: undefined }
  | { command: 'recover'; args: { to: string } }
  /** Approve again a gate already passed whose approved files changed (Loom: Approve Again). */
  | { command: 'reapprove'; args: { stage: string } }
  | { command: 'breakerChoice'; args: { taskId: string; choice: BreakerChoice } }
  /** The executing stage's dispatch transcripts, kept in the extension's storage. */
  | { command: 'showTranscripts'; args?: { taskId?: string } }
  /** Hands the spec's open comment threads to `@loom /refine` (Refine the Spec's Open Threads). */
  | { command: 'refineSpec'; args?: undefined }
  /** A task's checkpoint in VS Code's multi-file diff; a file of it rejected; the branch rewound to before it. */
  | { command: 'reviewChanges'; args: { taskId: string } }
  | { command: 'rejectFile'; args: { taskId: string } }
  | { command: 'rewindTask'; args: { taskId: string } }
  /** Verification by Loom: the project's build, type checks and tests re-run, verify-report.md written (Loom: Verify). */
  | { command: 'verify'; args?: undefined }
  /** The review's BLOCKERs fixed and review-response.md written (Loom: Answer Review). */
  | { command: 'answerReview'; args?: undefined }
  /** Loom: Run Pipeline and Loom: Stop Pipeline, for this spec. */
  | { command: 'runPipeline'; args?: undefined }
  | { command: 'stopPipeline'; args?: undefined }
  /** The one action that continues a stopped run ("Needs you"). */
  | { command: 'continuePipeline'; args?: undefined }
  /** Loom: Accept Spec as Accurate: the drift baseline moved to HEAD, the person's reason asked for. */
  | { command: 'acceptAsAccurate'; args?: undefined }
  /** Loom: Reconcile Spec with the Code: `@loom /reconcile` on the spec. */
  | { command: 'reconcileSpec'; args?: undefined }
  /** A drifted file in VS Code's diff, from the spec's baseline to the working tree (`file` as the spec names it). */
  | { command: 'showDriftDiff'; args: { file: string } }
);

export const EXPORT_FORMATS = ['csv', 'markdown'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Export the matrix; `behaviors` limits it to the rows the filters show. */
export interface ExportMatrixMessage {
  type: 'exportMatrix';
  specDir: string;
  format: ExportFormat;
  behaviors?: string[];
}

/** The dashboard's "Traceability matrix" button. */
export interface OpenMatrixMessage {
  type: 'openMatrix';
  specDir: string;
}

export type WebviewMessage = ReadyMessage | OpenFileMessage | RunCommandMessage | ExportMatrixMessage | OpenMatrixMessage;

// ---- persisted webview state ---------------------------------------------------------------

/**
 * What the webview keeps with `setState`. VS Code hands it to the host's
 * `WebviewPanelSerializer` after a window reload, which reopens the panel for `specDir`; `ui`
 * holds only UI details (scroll, selection, filters) and is opaque to the host.
 */
export interface PersistedViewState<UI = unknown> {
  view: ViewKind;
  specDir: string;
  ui?: UI;
}
