import * as vscode from 'vscode';
import { LoomError } from '../../core/port/errors';
import { exportSpecFeedback, type FeedbackVerdict, addThread, deleteComment, deleteThread, editComment, replyToThread, setThreadStatus, quoteLines, isCodeThread } from '../../core/port/review';
import { createArgumentCommand, createCommand, notify, type CommandContext, type CommandOutcome } from '../commands/createCommand';
import type { PendingDraftStore } from '../chat/pendingDrafts';
import type { SpecEntry } from '../specs/specRegistry';
import type { RefineCommand } from './refineChat';
import { LoomComment } from './reviewComment';
import type { ReviewThreads } from './reviewThreads';
import { t } from '../../core/port/messages';

const now = () => new Date().toISOString();
const done: CommandOutcome = { status: 'done' };

/**
 * The comment commands of a pull-request review (the editor's comment widgets call them with
 * the thread or comment), and "Refine with the model" on a thread, a file or the whole spec,
 * which hands the threads to `@loom /refine` with the model picked in the chat view.
 */
export function registerReviewCommands(ctx: CommandContext, threads: ReviewThreads, refine: RefineCommand, drafts: PendingDraftStore): vscode.Disposable[] {
  /** Comment edits write the spec's review-comments.json: refused in Restricted Mode, errors shown. */
  const command = <A>(id: string, run: (arg: A) => void | Promise<void>) =>
    createArgumentCommand(ctx, id, { writes: true, untrusted: t('host.comments.loomDoesNotWriteComment') }, async (arg: A) => {
      await run(arg);
      return done;
    });

  const entryOf = (dir: string): SpecEntry => {
    const entry = ctx.registry.entry(dir);
    if (!entry) throw new LoomError(t('host.comments.specThreadNoLongerWorkspace'));
    return entry;
  };
  const shown = (thread: vscode.CommentThread) => {
    const s = threads.shownFor(thread);
    if (!s) throw new LoomError(t('host.comments.commentThreadNoLongerReview'));
    return { ...s, entry: entryOf(s.dir) };
  };

  /** A first comment: the editor made an empty thread on the lines; it becomes a stored one. */
  const create = async (reply: vscode.CommentReply) => {
    const where = threads.locate(reply.thread.uri);
    if (!where) throw new LoomError(t('host.comments.loomTakesCommentsSpecFiles'));
    const range = reply.thread.range ?? new vscode.Range(0, 0, 0, 0);
    const doc = await vscode.workspace.openTextDocument(reply.thread.uri);
    const line = range.start.line + 1;
    const endLine = Math.max(line, range.end.line + 1);
    threads.update(where.entry, (c) =>
      addThread(c, { file: where.file, line, endLine, quote: quoteLines(doc.getText(), line, endLine), code: where.code, author: threads.author, body: reply.text, now: now() }),
    );
    reply.thread.dispose();
  };

  /** Opens the chat on `@loom /refine`, with the model the user picks there; without any model, comments stay notes. */
  const refineIn = async (entry: SpecEntry, scope: string): Promise<CommandOutcome> => {
    const models = await vscode.lm.selectChatModels();
    if (!models.length) {
      const message = t('host.comments.refineNeedsLanguageModelNone');
      notify('info', message);
      return { status: 'refused', message, reasons: [] };
    }
    if (!threads.openCount(entry.dir)) {
      const message = t('host.comments.hasNoOpenCommentThread2', { specDir: entry.spec.snapshot.specDir });
      notify('info', message);
      return { status: 'refused', message, reasons: [] };
    }
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@loom /refine ${entry.spec.snapshot.specDir} ${scope}`.trim(), isPartialQuery: false });
    return { status: 'done', specDir: entry.spec.snapshot.specDir };
  };

  return [
    command('loom.addComment', (reply: vscode.CommentReply) => (threads.shownFor(reply.thread) ? undefined : create(reply))),
    command('loom.replyComment', async (reply: vscode.CommentReply) => {
      const s = threads.shownFor(reply.thread);
      if (!s) return create(reply);
      threads.update(entryOf(s.dir), (c) => replyToThread(c, s.threadId, threads.author, reply.text, now()));
    }),
    command('loom.editComment', (comment: LoomComment) => {
      comment.beginEdit();
      threads.redrawComment(comment);
    }),
    command('loom.cancelCommentEdit', (comment: LoomComment) => {
      comment.cancelEdit();
      threads.redrawComment(comment);
    }),
    command('loom.saveComment', (comment: LoomComment) => {
      threads.update(entryOf(comment.dir), (c) => editComment(c, comment.threadId, comment.stored.id, comment.text, now()));
    }),
    command('loom.deleteComment', (comment: LoomComment) => {
      threads.update(entryOf(comment.dir), (c) => deleteComment(c, comment.threadId, comment.stored.id));
    }),
    command('loom.deleteThread', (thread: vscode.CommentThread) => {
      const s = threads.shownFor(thread);
      if (!s) return thread.dispose(); // a thread still being written has nothing stored
      threads.update(entryOf(s.dir), (c) => deleteThread(c, s.threadId));
    }),
    command('loom.resolveThread', (thread: vscode.CommentThread) => {
      const s = shown(thread);
      threads.update(s.entry, (c) => setThreadStatus(c, s.threadId, 'resolved'));
    }),
    command('loom.reopenThread', (thread: vscode.CommentThread) => {
      const s = shown(thread);
      threads.update(s.entry, (c) => setThreadStatus(c, s.threadId, 'open'));
    }),
    createArgumentCommand(ctx, 'loom.refineThread', { writes: false }, async (thread: vscode.CommentThread): Promise<CommandOutcome> => {
      const s = threads.shownFor(thread);
      const entry = s && ctx.registry.entry(s.dir);
      return entry ? refineIn(entry, `#${s.threadId}`) : { status: 'refused', message: t('host.comments.commentThreadNoLongerReview'), reasons: [] };
    }),
    command('loom.acceptRefinedFile', async (arg: { id?: string; path?: string }) => {
      const pending = drafts.byId(arg?.id ?? '');
      if (!pending || !pending.drafts.some((d) => d.path === arg.path)) {
        notify('info', t('host.chat.draftNoLongerPendingWas'));
        return;
      }
      const written = await refine.writeFiles(pending, [arg.path!]);
      notify('info', t('host.chat.wrote', { filesWritten: written.join(', '), specDir: pending.specDir }));
    }),
    createCommand(ctx, 'loom.refineFile', { spec: true, writes: true }, async (_args, entry) => {
      const uri = vscode.window.activeTextEditor?.document.uri;
      const where = uri ? threads.locate(uri) : undefined;
      return refineIn(entry!, where && where.entry.dir === entry!.dir ? where.file : '');
    }),
    createCommand(ctx, 'loom.refineSpec', { spec: true, writes: true }, async (_args, entry) => {
      return refineIn(entry!, '');
    }),
    createCommand(ctx, 'loom.exportReviewFeedback', { spec: true, writes: true }, async (_args, entry) => {
      // The points of a code review: the threads on the feature's code, left at the review gate.
      const open = threads.open(entry!.dir).filter(isCodeThread);
      if (!open.length) {
        const message = t('host.comments.hasNoOpenCommentThread3', { specDir: entry!.spec.snapshot.specDir });
        notify('info', message);
        return { status: 'refused', message, reasons: [] };
      }
      const choices: { label: string; verdict: FeedbackVerdict }[] = [
        { label: t('host.comments.passThesePointsAnswer'), verdict: 'PASS' },
        { label: t('host.comments.changesRequested'), verdict: 'CHANGES_REQUESTED' },
      ];
      const pick = (await vscode.window.showQuickPick(choices, { placeHolder: t('host.comments.exportOpenThreadSInto', { openCount: open.length }) }))?.verdict;
      if (!pick) return { status: 'cancelled' };
      const title = entry!.spec.snapshot.name.replace(/^.*\+/, '');
      // The spec reads its files again: the views hear of review-feedback.md from its one notification.
      const rel = exportSpecFeedback(entry!.spec, title, open, pick);
      notify('info', t('host.comments.wrote', { rel }));
      return { status: 'done', specDir: entry!.spec.snapshot.specDir, uri: rel };
    }),
  ];
}
