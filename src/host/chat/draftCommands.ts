import * as vscode from 'vscode';
import { filesWritten, writeDrafts, type WrittenDrafts } from '../../core/port/authoring';
import { LoomError } from '../../core/port/errors';
import { personOf, writeReconcile } from '../../core/port/drift';
import { LoomRepository } from '../../core/port/specs';
import { createArgumentCommand, notify, type CommandContext, type CommandOutcome } from '../commands/createCommand';
import { PendingDraftStore, type PendingDrafts } from './pendingDrafts';
import { t } from '../../core/port/messages';

/** Writes accepted drafts and forgets them; the views hear of the files from the spec's notification (writeDrafts reads them back through the spec). */
export async function writePending(ctx: CommandContext, store: PendingDraftStore, p: PendingDrafts): Promise<WrittenDrafts> {
  const spec = ctx.registry.entry(p.dir)?.spec ?? new LoomRepository(p.repoRoot).get(p.specDir);
  if (!spec) throw new LoomError(t('host.chat.noLongerSpecDirectoryNothing', { specDir: p.specDir }), p.specDir);
  const now = new Date().toISOString();
  // A reconcile's write moves the spec's drift baseline too, in the same hold of its run lock.
  const result =
    p.command.name === 'reconcile'
      ? await writeReconcile(spec, p.command, p.drafts, p.base, p.summary, await personOf(p.repoRoot, '@loom /reconcile'), now)
      : writeDrafts(spec, p.command, p.drafts, p.base, p.summary, now);
  store.delete(p);
  ctx.log.component('chat').info(`/${p.command.name} wrote ${filesWritten(result).join(', ')} in ${p.specDir}`);
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
    createArgumentCommand(ctx, 'loom.writeDrafts', { writes: true, untrusted: t('host.chat.loomDoesNotWriteFiles') }, async (arg?: unknown): Promise<CommandOutcome> => {
      const pending = store.byId(idOf(arg) ?? '');
      if (!pending) {
        const message = t('host.chat.theseDraftsAreNoLonger');
        notify('info', message);
        return { status: 'refused', message, reasons: [] };
      }
      const result = await writePending(ctx, store, pending);
      const message = t('host.chat.wrote', { filesWritten: filesWritten(result).join(', '), specDir: pending.specDir });
      notify('info', message, [{ title: t('host.chat.loomAdvance'), run: () => void vscode.commands.executeCommand('loom.advance', { specDir: pending.dir }) }]);
      return { status: 'done', specDir: pending.specDir, message, finished: result.written };
    }),
    createArgumentCommand(ctx, 'loom.showDraftDiff', { writes: false }, async (arg?: unknown): Promise<CommandOutcome> => {
      const raw = (arg && typeof arg === 'object' ? arg : {}) as { id?: unknown; path?: unknown };
      const pending = store.byId(typeof raw.id === 'string' ? raw.id : '');
      const draft = pending?.drafts.find((d) => d.path === raw.path);
      if (!pending || !draft) {
        const message = t('host.chat.draftNoLongerPendingWas');
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
      await vscode.commands.executeCommand('vscode.diff', left, store.uri(pending, draft.path), t('host.chat.draftLoom', { path: draft.path, name: pending.command.name }), { preview: true });
      return { status: 'done', specDir: pending.specDir };
    }),
  ];
}
