/**
 * zod schemas for everything a webview sends to the host. A webview renders content taken from
 * the repository's files, so the host treats its messages as untrusted: every message is parsed
 * here before it is acted on, and paths must stay inside the repository. Only the host imports
 * this file, which keeps zod out of the webview bundles.
 */
import type { z } from 'zod';
import { lazySchema } from './lazySchema';
import { TASK_ID_PATTERN } from '../core/files/vocabulary';
import { BREAKER_CHOICES, EXPORT_FORMATS, PROTOCOL_VERSION, VIEW_KINDS, type PersistedViewState, type WebviewMessage } from './protocol';

/** Repository-relative, `/`-separated, no `..` segment, no drive or leading slash. */
export function isSafeRelativePath(p: string): boolean {
  if (p.length === 0 || p.length > 1024 || p.includes('\0') || p.includes('\\')) return false;
  if (p.startsWith('/') || /^[A-Za-z]:/.test(p)) return false;
  return p.split('/').every((seg) => seg !== '..');
}

const relativePath = lazySchema((z) => z.string().refine(isSafeRelativePath, 'must be a repository-relative path inside the repository'));

/** Any message a webview may send. `runCommand` is a union of its own, keyed by `command`. */
export const WebviewMessageSchema = lazySchema((z) => {
  const specDir = relativePath();
  const stageId = z.string().min(1).max(100);

  const ReadySchema = z.strictObject({ type: z.literal('ready'), view: z.enum(VIEW_KINDS), protocol: z.literal(PROTOCOL_VERSION) });

  const OpenFileSchema = z.strictObject({
    type: z.literal('openFile'),
    path: relativePath(),
    line: z.number().int().min(1).optional(),
    testName: z.string().min(1).max(500).optional(),
  });

  const run = { type: z.literal('runCommand'), specDir };
  const RunCommandSchema = z.discriminatedUnion('command', [
    z.strictObject({ ...run, command: z.literal('advance'), args: z.strictObject({ to: stageId.optional() }).optional() }),
    z.strictObject({ ...run, command: z.literal('approve'), args: z.strictObject({ to: stageId.optional() }).optional() }),
    z.strictObject({ ...run, command: z.literal('markFailed'), args: z.undefined().optional() }),
    z.strictObject({ ...run, command: z.literal('checkStage'), args: z.undefined().optional() }),
    z.strictObject({ ...run, command: z.literal('refineSpec'), args: z.undefined().optional() }),
    z.strictObject({ ...run, command: z.literal('verify'), args: z.undefined().optional() }),
    z.strictObject({ ...run, command: z.literal('answerReview'), args: z.undefined().optional() }),
    z.strictObject({ ...run, command: z.literal('runPipeline'), args: z.undefined().optional() }),
    z.strictObject({ ...run, command: z.literal('stopPipeline'), args: z.undefined().optional() }),
    z.strictObject({ ...run, command: z.literal('continuePipeline'), args: z.undefined().optional() }),
    z.strictObject({ ...run, command: z.literal('acceptAsAccurate'), args: z.undefined().optional() }),
    z.strictObject({ ...run, command: z.literal('reconcileSpec'), args: z.undefined().optional() }),
    z.strictObject({ ...run, command: z.literal('showDriftDiff'), args: z.strictObject({ file: relativePath() }) }),
    z.strictObject({ ...run, command: z.literal('recover'), args: z.strictObject({ to: stageId }) }),
    z.strictObject({ ...run, command: z.literal('reapprove'), args: z.strictObject({ stage: stageId }) }),
    z.strictObject({ ...run, command: z.literal('showTranscripts'), args: z.strictObject({ taskId: z.string().regex(TASK_ID_PATTERN).optional() }).optional() }),
    ...(['reviewChanges', 'rejectFile', 'rewindTask'] as const).map((command) =>
      z.strictObject({ ...run, command: z.literal(command), args: z.strictObject({ taskId: z.string().regex(TASK_ID_PATTERN) }) }),
    ),
    z.strictObject({
      ...run,
      command: z.literal('breakerChoice'),
      args: z.strictObject({ taskId: z.string().regex(TASK_ID_PATTERN), choice: z.enum(BREAKER_CHOICES) }),
    }),
  ]);

  const ExportMatrixSchema = z.strictObject({
    type: z.literal('exportMatrix'),
    specDir,
    format: z.enum(EXPORT_FORMATS),
    behaviors: z.array(z.string().min(1).max(200)).max(1_000_000).optional(),
  });

  const OpenMatrixSchema = z.strictObject({ type: z.literal('openMatrix'), specDir });

  return z.union([ReadySchema, OpenFileSchema, RunCommandSchema, ExportMatrixSchema, OpenMatrixSchema]);
});

/** The state VS Code hands to a `WebviewPanelSerializer`; `ui` stays opaque to the host. */
export const PersistedViewStateSchema = lazySchema((z) => z.looseObject({ view: z.enum(VIEW_KINDS), specDir: relativePath(), ui: z.unknown().optional() }));

export type ParsedWebviewMessage = { ok: true; message: WebviewMessage } | { ok: false; error: string };

/** Validates one incoming message; the error names the first problem, for the log. */
export function parseWebviewMessage(data: unknown): ParsedWebviewMessage {
  const r = WebviewMessageSchema().safeParse(data);
  if (r.success) return { ok: true, message: r.data };
  const issue = r.error.issues[0];
  return { ok: false, error: issue ? `${issue.path.join('.') || 'message'}: ${issue.message}` : 'invalid message' };
}

/** The serializer's state, or undefined when it is missing or not ours. */
export function parsePersistedViewState(state: unknown): PersistedViewState | undefined {
  const r = PersistedViewStateSchema().safeParse(state);
  return r.success ? { view: r.data.view, specDir: r.data.specDir, ui: r.data.ui } : undefined;
}

// The schemas and the protocol's types must describe the same messages, both ways.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesProtocol: Same<z.infer<ReturnType<typeof WebviewMessageSchema>>, WebviewMessage> = true;
void schemaMatchesProtocol;
