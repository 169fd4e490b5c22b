import * as vscode from 'vscode';
import { FileTranscriptStore, describeDispatch, renderTranscriptMarkdown } from '../../core/port/executing';
import { splitSpecName } from '../format';
import { createCommand, notify, type CommandContext, type CommandOutcome } from '../commands/createCommand';
import { t } from '../../core/port/messages';

const SCHEME = 'loom-transcript';

/** `loom-transcript:/T1 implementer.md?spec=…&dispatch=…`: the path names the tab, the query finds the file. */
function transcriptUri(spec: string, dispatchId: string, title: string): vscode.Uri {
  const query = new URLSearchParams({ spec, dispatch: dispatchId }).toString();
  return vscode.Uri.from({
    scheme: SCHEME,
    path: `/${title
      .replace(/[/\\·]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()}.md`,
    query,
  });
}

/**
 * Loom: Show Transcripts: the spec's dispatch transcripts (the extension's storage, never the
 * spec directory) in a quick pick; the chosen one opens read-only, rendered to Markdown.
 */
export function registerTranscriptCommands(ctx: CommandContext, storageDir: string): vscode.Disposable[] {
  const store = new FileTranscriptStore(storageDir);
  const provider: vscode.TextDocumentContentProvider = {
    provideTextDocumentContent(uri) {
      const q = new URLSearchParams(uri.query);
      return renderTranscriptMarkdown(store.read(q.get('spec') ?? '', q.get('dispatch') ?? ''));
    },
  };

  return [
    vscode.workspace.registerTextDocumentContentProvider(SCHEME, provider),
    createCommand(ctx, 'loom.showTranscripts', { spec: true, writes: false, placeHolder: t('host.executing.whoseTranscripts') }, async (args, e): Promise<CommandOutcome> => {
      const spec = e!.spec.snapshot.specDir;
      const feature = splitSpecName(e!.spec.snapshot.name).feature;
      const dispatches = store
        .list(spec)
        .filter((d) => !args.taskId || d.task === args.taskId)
        .reverse();
      if (dispatches.length === 0) {
        const message = args.taskId ? t('host.executing.hasNoTranscriptsYetThey', { taskId: args.taskId, feature }) : t('host.executing.hasNoTranscriptsYetThey2', { feature });
        notify('info', message);
        return { status: 'refused', message, reasons: [] };
      }
      const picked = await vscode.window.showQuickPick(
        dispatches.map((d) => ({
          label: describeDispatch(d),
          description: new Date(d.startedAt).toLocaleString(vscode.env.language),
          detail: t('host.executing.entries', { entries: String(d.entries), dispatchId: d.dispatchId }),
          dispatch: d,
        })),
        { placeHolder: t('host.executing.whichTranscriptNewestFirst', { feature }), matchOnDetail: true },
      );
      if (!picked) return { status: 'cancelled' };
      const uri = transcriptUri(spec, picked.dispatch.dispatchId, `${feature} ${picked.label}`);
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc, { preview: true });
      return { status: 'done', specDir: e!.dir, uri: uri.toString() };
    }),
  ];
}
