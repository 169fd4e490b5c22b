import * as vscode from 'vscode';
import { filesWritten, writeDrafts, type WrittenDrafts } from '../../core/port/authoring';
import { LoomError } from '../../core/port/errors';
import { LoomRepository } from '../../core/port/specs';
import { createArgumentCommand, notify, type CommandContext, type CommandOutcome } from '../commands/createCommand';
import { PendingDraftStore, type PendingDrafts } from './pendingDrafts';

/** Writes accepted drafts, forgets them, and lets the registry see the files at once. */
export async function writePending(ctx: CommandContext, store: PendingDraftStore, p: PendingDrafts): Promise<WrittenDrafts> {
  const spec = ctx.registry.entry(p.dir)?.spec ?? new LoomRepository(p.repoRoot).get(p.specDir);
  if (!spec) throw new LoomError(vscode.l10n.t('{0} is no longer a spec directory; nothing was written.', p.specDir), p.specDir);
  const result = writeDrafts(spec, p.command, p.drafts, p.base, p.summary, new Date().toISOString());
  store.delete(p);
  ctx.log.component('chat').info(`/${p.command.name} wrote ${filesWritten(result).join(', ')} in ${p.specDir}`);
  ctx.registry.reloadNow(p.dir);
  store.written(p, result);
  return result;
}

const idOf = (arg: unknown): string | undefined => (arg && typeof arg === 'object' && typeof (arg as { id?: unknown }).id === 'string' ? (arg as { id: string }).id : undefined);

/**
 * The buttons under a preview: "Write files" (the same as answering "write" in the chat) and
 * "Show diff" for one file, which opens the file beside its draft.
 */
export function registerDraftCommands(ctx: CommandContext, store: PendingDraftStore): vscode.Disposable[] {
  return [
    vscode.workspace.registerTextDocumentContentProvider(PendingDraftStore.scheme, store),
    createArgumentCommand(
      ctx,
      'loom.writeDrafts',
      { writes: true, untrusted: vscode.l10n.t('Loom does not write files in Restricted Mode. Trust this workspace to write the drafts.') },
      async (arg?: unknown): Promise<CommandOutcome> => {
        const pending = store.byId(idOf(arg) ?? '');
        if (!pending) {
          const message = vscode.l10n.t('These drafts are no longer pending: they were written, or replaced by a newer proposal.');
          notify('info', message);
          return { status: 'refused', message, reasons: [] };
        }
        const result = await writePending(ctx, store, pending);
        const message = vscode.l10n.t('Wrote {0} in {1}.', filesWritten(result).join(', '), pending.specDir);
        notify('info', message, [{ title: vscode.l10n.t('Loom: Advance'), run: () => void vscode.commands.executeCommand('loom.advance', { specDir: pending.dir }) }]);
        return { status: 'done', specDir: pending.specDir, message, finished: result.written };
      },
    ),
    createArgumentCommand(ctx, 'loom.showDraftDiff', { writes: false }, async (arg?: unknown): Promise<CommandOutcome> => {
      const raw = (arg && typeof arg === 'object' ? arg : {}) as { id?: unknown; path?: unknown };
      const pending = store.byId(typeof raw.id === 'string' ? raw.id : '');
      const draft = pending?.drafts.find((d) => d.path === raw.path);
      if (!pending || !draft) {
        const message = vscode.l10n.t('This draft is no longer pending: it was written or replaced.');
        notify('info', message);
        return { status: 'refused', message, reasons: [] };
      }
      const file = vscode.Uri.joinPath(vscode.Uri.file(pending.dir), ...draft.path.split('/'));
      let exists = true;
      try {
        await vscode.workspace.fs.stat(file);
      } catch {
        exists = false;
      }
      // A new file is compared with an empty document, so the whole draft reads as added.
      const left = exists ? file : store.emptyUri(draft.path);
      await vscode.commands.executeCommand('vscode.diff', left, store.uri(pending, draft.path), vscode.l10n.t('{0} ↔ draft of @loom /{1}', draft.path, pending.command.name), { preview: true });
      return { status: 'done', specDir: pending.specDir };
    }),
  ];
}
