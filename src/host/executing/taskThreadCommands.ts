import * as vscode from 'vscode';
import { LoomError } from '../../core/port/errors';
import { request } from '../../core/port/request';
import { addTaskThread, fileDigest, markReviewed, quoteLines, replyToTaskThread, setTaskThreadStatus, taskChangedFiles, taskCodeRoot } from '../../core/port/taskReview';
import { presentRefused } from '../commands/answers';
import { createArgumentCommand, notify, type CommandContext, type CommandOutcome } from '../commands/createCommand';
import type { SpecEntry } from '../specs/specRegistry';
import { latestCommitOf, taskSideOf, type TaskThreads } from './taskThreads';
import { t } from '../../core/port/messages';

const now = () => new Date().toISOString();
const done: CommandOutcome = { status: 'done' };

/** What Mark as Reviewed and Send to the Implementer are given: a task (and a file), from a diff editor, a thread or a caller. */
interface TaskTarget {
  specDir?: string;
  taskId?: string;
  file?: string;
  /** A task row of the tree gives its spec and task so. */
  dir?: string;
  task?: string;
}

/**
 * The commands of comments on a task's change: the comment widget's Add and Reply, Resolve and
 * Reopen, Send to the Implementer (the task's open threads as one fix round, through the spec's
 * actor), and Mark as Reviewed per file (kept in task-reviews/TN.json with the file's digest).
 */
export function registerTaskThreadCommands(ctx: CommandContext, threads: TaskThreads): vscode.Disposable[] {
  const command = <A>(id: string, run: (arg: A) => Promise<CommandOutcome | void> | CommandOutcome | void) =>
    createArgumentCommand(ctx, id, { writes: true, untrusted: t('host.taskReview.untrusted') }, async (arg: A) => (await run(arg)) ?? done);

  const entryOf = (dir: string): SpecEntry => {
    const e = threads.entryOf(dir) ?? ctx.registry.entry(dir);
    if (!e) throw new LoomError(t('host.comments.specThreadNoLongerWorkspace'));
    return e;
  };

  /** The first comment: the editor made an empty thread on lines of the file after the task; it becomes a stored one. */
  const create = async (reply: vscode.CommentReply) => {
    const side = taskSideOf(reply.thread.uri);
    if (!side) throw new LoomError(t('host.taskReview.onlyAfter'));
    const e = entryOf(side.spec);
    const range = reply.thread.range ?? new vscode.Range(0, 0, 0, 0);
    const doc = await vscode.workspace.openTextDocument(reply.thread.uri);
    const line = range.start.line + 1;
    const endLine = Math.max(line, range.end.line + 1);
    reply.thread.dispose();
    await threads.update(e, side.task, (r) =>
      addTaskThread(r, { file: side.file, line, endLine, quote: quoteLines(doc.getText(), line, endLine) }, { author: threads.author, body: reply.text }, now()),
    );
  };

  const shown = (thread: vscode.CommentThread) => {
    const s = threads.shownFor(thread);
    if (!s) throw new LoomError(t('host.taskReview.threadGone'));
    return { ...s, entry: entryOf(s.dir) };
  };

  /** Send to the Implementer: the spec's actor plans and records the fix round, or refuses saying why. */
  const send = async (e: SpecEntry, task: string): Promise<CommandOutcome> => {
    const answer = await request(e.spec, { type: 'sendThreads', task });
    if (answer.kind === 'refused') return presentRefused(ctx, e, answer, 'taskReview');
    if (answer.kind !== 'changed') return { status: 'cancelled' };
    // The request read what it wrote and told the views; the threads are drawn before the message.
    await threads.render(e.dir);
    const run = t('ask.runTasks.ok');
    const count = answer.intent === 'sendThreads' ? answer.threads : 0;
    void vscode.window
      .showInformationMessage(t('host.taskReview.sentTo', { task, count }), run)
      .then((choice) => (choice === run ? vscode.commands.executeCommand('loom.runTasks', { specDir: e.dir }) : undefined));
    return { status: 'done', specDir: e.dir, message: `${task}: ${count}` };
  };

  /** The task and file a command is about: its argument, else the diff editor in front. */
  const targetOf = (arg: unknown): { e: SpecEntry; task: string; file?: string } | undefined => {
    const a = (arg && typeof arg === 'object' && !(arg instanceof vscode.Uri) ? arg : {}) as TaskTarget;
    const dir = a.specDir ?? a.dir;
    const task = a.taskId ?? a.task;
    const uri = arg instanceof vscode.Uri ? arg : dir ? undefined : vscode.window.activeTextEditor?.document.uri;
    const side = uri ? taskSideOf(uri) : undefined;
    if (side) return { e: entryOf(side.spec), task: side.task, file: side.file };
    const e = dir ? ctx.registry.entry(dir) : undefined;
    return e && task ? { e, task, ...(a.file ? { file: a.file } : {}) } : undefined;
  };

  const mark = async (arg: unknown, reviewed: boolean): Promise<CommandOutcome> => {
    const target = targetOf(arg);
    if (!target) {
      const message = t('host.taskReview.noTarget');
      notify('info', message);
      return { status: 'refused', message, reasons: [] };
    }
    const { e, task } = target;
    let file = target.file;
    if (!file) {
      file = await vscode.window.showQuickPick(taskChangedFiles(e.spec.snapshot, task), { placeHolder: t('host.taskReview.whichFile', { task }) });
      if (!file) return { status: 'cancelled' };
    }
    const root = taskCodeRoot(e.spec.snapshot);
    const commit = latestCommitOf(e, task, file);
    await threads.update(e, task, (r) =>
      markReviewed(r, reviewed ? { file: file!, sha256: fileDigest(root, file!), at: now(), by: threads.author, ...(commit ? { commit } : {}) } : { file: file!, unmark: true }),
    );
    return { status: 'done', specDir: e.dir, message: `${task}: ${file}` };
  };

  return [
    command('loom.addTaskComment', (reply: vscode.CommentReply) => (threads.shownFor(reply.thread) ? undefined : create(reply))),
    command('loom.replyTaskComment', async (reply: vscode.CommentReply) => {
      const s = threads.shownFor(reply.thread);
      if (!s) return create(reply);
      await threads.update(entryOf(s.dir), s.task, (r) => replyToTaskThread(r, s.id, { author: threads.author, body: reply.text }, now()));
    }),
    command('loom.resolveTaskThread', async (thread: vscode.CommentThread) => {
      const s = shown(thread);
      await threads.update(s.entry, s.task, (r) => setTaskThreadStatus(r, s.id, 'resolved'));
    }),
    command('loom.reopenTaskThread', async (thread: vscode.CommentThread) => {
      const s = shown(thread);
      // Reopened, it is the person's again: the next Send carries it.
      await threads.update(s.entry, s.task, (r) => {
        setTaskThreadStatus(r, s.id, 'open');
        const th = r.threads.find((x) => x.id === s.id);
        if (th) delete th.sent;
      });
    }),
    command('loom.sendToImplementer', async (arg: vscode.CommentThread | TaskTarget | undefined) => {
      const s = arg && 'uri' in arg && 'comments' in arg ? threads.shownFor(arg) : undefined;
      if (s) return send(entryOf(s.dir), s.task);
      const target = targetOf(arg);
      if (!target) {
        const message = t('host.taskReview.noTarget');
        notify('info', message);
        return { status: 'refused', message, reasons: [] };
      }
      return send(target.e, target.task);
    }),
    command('loom.markReviewed', (arg: unknown) => mark(arg, true)),
    command('loom.unmarkReviewed', (arg: unknown) => mark(arg, false)),
  ];
}
