import { userInfo } from 'node:os';
import { join, sep } from 'node:path';
import { readdirSync } from 'node:fs';
import * as vscode from 'vscode';
import { fileAt } from '../../core/port/files';
import { checkpointsOf } from '../../core/port/views';
import { anchorThread, readTaskReview, TASK_REVIEWS_DIR, taskCodeRoot, updateTaskReview, type TaskReview, type TaskThread } from '../../core/port/taskReview';
import type { LoomConfig } from '../config';
import type { Log } from '../log';
import type { SpecEntry, SpecRegistry } from '../specs/specRegistry';
import { t } from '../../core/port/messages';
import { followSpecs, StoredThreads, wholeFileComments } from '../comments/wholeFileComments';

export const TASK_REVIEW_CONTROLLER_ID = 'loom.taskReview';
export const CHECKPOINT_SCHEME = 'loom-checkpoint';

/** Which side of a task's diff a `loom-checkpoint:` document is: comments go on the side after the task. */
export interface CheckpointSide {
  /** Absolute spec directory. */
  spec: string;
  task: string;
  side: 'before' | 'after';
}

/** `loom-checkpoint:/src/due.js?worktree=…&commit=…[&spec=…&task=…&side=…]`: a file as a checkpoint (or the commit before it) has it. */
export function checkpointUri(root: string, commit: string, file: string, of?: CheckpointSide): vscode.Uri {
  const query = new URLSearchParams({ worktree: root, commit, ...(of ? { spec: of.spec, task: of.task, side: of.side } : {}) });
  return vscode.Uri.from({ scheme: CHECKPOINT_SCHEME, path: `/${file}`, query: query.toString() });
}

/** The task and file a `loom-checkpoint:` document after a task's change shows, or undefined for any other document. */
export function taskSideOf(uri: vscode.Uri): { spec: string; task: string; file: string; commit: string; root: string } | undefined {
  if (uri.scheme !== CHECKPOINT_SCHEME) return undefined;
  const q = new URLSearchParams(uri.query);
  const spec = q.get('spec');
  const task = q.get('task');
  if (!spec || !task || q.get('side') !== 'after') return undefined;
  return { spec, task, file: uri.path.replace(/^\//, ''), commit: q.get('commit') ?? '', root: q.get('worktree') ?? '' };
}

/** The commit whose version of `file` the task's change ends with: its latest checkpoint that changed it. */
export function latestCommitOf(e: SpecEntry, task: string, file: string): string | undefined {
  return [...checkpointsOf(e.spec.snapshot.taskStates.get(task))].reverse().find((c) => c.files.includes(file))?.commit;
}

/** The document a thread is drawn on: the file as Review Changes shows it after the task. */
export function threadUri(e: SpecEntry, task: string, file: string): vscode.Uri | undefined {
  const commit = latestCommitOf(e, task, file);
  return commit ? checkpointUri(taskCodeRoot(e.spec.snapshot), commit, file, { spec: e.dir, task, side: 'after' }) : undefined;
}

class TaskComment implements vscode.Comment {
  readonly mode = vscode.CommentMode.Preview;
  readonly body: vscode.MarkdownString;
  readonly author: vscode.CommentAuthorInformation;
  readonly timestamp: Date;
  readonly contextValue = 'loomTaskComment';
  constructor(stored: TaskThread['comments'][number]) {
    this.body = new vscode.MarkdownString(stored.body);
    this.author = { name: stored.author };
    this.timestamp = new Date(stored.created_at);
  }
}

function threadLabel(th: TaskThread, outdated: boolean): string {
  if (th.status === 'resolved') return t('host.taskReview.resolved');
  if (th.sent) return t('host.taskReview.sent');
  if (outdated) return t('host.taskReview.outdated');
  return t('host.taskReview.open', { author: th.comments[0]?.author ?? '?' });
}

interface Shown {
  dir: string;
  task: string;
  id: string;
  file: string;
  thread: vscode.CommentThread;
}

/**
 * Comment threads on a task's change, in Review Changes (the side after the task of each file):
 * one CommentController whose threads are read from each task's task-reviews/TN.json and drawn
 * again from it after every change, so what the editor shows is what is stored. A task rewound
 * (no checkpoint left) keeps its threads in the file; they are drawn again when it has one.
 */
export class TaskThreads extends StoredThreads<Shown> {
  readonly controller: vscode.CommentController;

  constructor(registry: SpecRegistry, config: LoomConfig, log: Log) {
    super(registry, config, log);
    const texts = { prompt: t('host.taskReview.prompt'), placeHolder: t('host.taskReview.placeHolder') };
    this.controller = this._register(wholeFileComments(TASK_REVIEW_CONTROLLER_ID, t('host.taskReview.controller'), texts, (uri) => !!taskSideOf(uri)));
    this._register(
      followSpecs(
        registry,
        () => this.renderAll(),
        (dir) => this.render(dir),
      ),
    );
    this._register(vscode.workspace.onDidSaveTextDocument((doc) => this.fileSaved(doc.uri)));
  }

  /**
   * A file of a task's change saved by hand: the spec is read again, so a Mark as Reviewed whose
   * file no longer has its digest clears in the tree and the dashboard at once (the watcher sees
   * only the spec directory, not the feature worktree).
   */
  private fileSaved(uri: vscode.Uri): void {
    if (uri.scheme !== 'file') return;
    for (const dir of this.shown.keys()) {
      const e = this.registry.peek(dir);
      if (e && uri.fsPath.startsWith(`${taskCodeRoot(e.spec.snapshot)}${sep}`)) this.registry.settleNow(dir);
    }
  }

  get author(): string {
    return this.config.reviewAuthor || userInfo().username || 'reviewer';
  }

  entryOf(dir: string): SpecEntry | undefined {
    return this.registry.entry(dir);
  }

  shownFor(thread: vscode.CommentThread): Shown | undefined {
    return this.byThread.get(thread);
  }

  /** The editor threads of a task, by stored id (tests and commands reach them here). */
  threadsOf(dir: string, task: string): Shown[] {
    return [...(this.shown.get(dir)?.values() ?? [])].filter((s) => s.task === task);
  }

  /**
   * Changes a task's review through the store (run lock, atomic write) as a change of the spec
   * (SpecPipeline.change: the views hear of it from the spec), then draws its spec's threads again.
   */
  async update<T>(e: SpecEntry, task: string, edit: (r: TaskReview) => T): Promise<T> {
    try {
      return e.spec.change(() => updateTaskReview({ dir: e.dir, specDir: e.spec.snapshot.specDir }, task, edit));
    } finally {
      await this.render(e.dir);
    }
  }

  renderAll(): void {
    const live = new Set(this.registry.rows().map((r) => r.dir));
    for (const dir of [...this.shown.keys()]) if (!live.has(dir)) void this.render(dir);
    for (const dir of live) if (this.shown.has(dir) || this.registry.peek(dir)?.spec.snapshot.files.has(`${TASK_REVIEWS_DIR}/`)) void this.render(dir);
  }

  /** The tasks of a spec with a review file. */
  private tasksWithReviews(dir: string): string[] {
    try {
      return readdirSync(join(dir, TASK_REVIEWS_DIR))
        .filter((f) => f.endsWith('.json') && !f.startsWith('.'))
        .map((f) => f.slice(0, -'.json'.length));
    } catch {
      return [];
    }
  }

  /** Draws a spec's task threads from its task-reviews/ files; a spec that is gone loses them. */
  async render(dir: string): Promise<void> {
    const entry = this.registry.entry(dir);
    const previous = this.shown.get(dir) ?? new Map<string, Shown>();
    const next = new Map<string, Shown>();
    for (const task of entry ? this.tasksWithReviews(dir) : []) {
      let review: TaskReview;
      try {
        review = readTaskReview({ dir, specDir: entry!.spec.snapshot.specDir }, task);
        this.warned.delete(`${dir}\0${task}`);
      } catch (e) {
        this.reportCorrupt(`${dir}\0${task}`, e);
        for (const [id, s] of previous) if (s.task === task) next.set(id, s);
        continue;
      }
      for (const stored of review.threads) {
        const uri = threadUri(entry!, task, stored.file);
        if (!uri) continue; // the task was rewound: nothing to draw the thread on
        const old = previous.get(stored.id);
        previous.delete(stored.id);
        next.set(stored.id, await this.draw(dir, task, stored, uri, old));
      }
    }
    for (const gone of previous.values()) if (![...next.values()].some((s) => s.thread === gone.thread)) gone.thread.dispose();
    if (next.size || this.shown.has(dir)) this.shown.set(dir, next);
    if (!entry) this.shown.delete(dir);
    this._onDidChange.fire(dir);
  }

  private async draw(dir: string, task: string, stored: TaskThread, uri: vscode.Uri, old: Shown | undefined): Promise<Shown> {
    const side = taskSideOf(uri)!;
    const text = await fileAt(side.root, side.commit, side.file).catch(() => undefined);
    const anchor = text === undefined ? { line: stored.line, endLine: stored.end_line, outdated: true } : anchorThread(stored, text);
    const range = new vscode.Range(anchor.line - 1, 0, anchor.endLine - 1, 0);
    const comments = stored.comments.map((c) => new TaskComment(c));
    const thread = old && old.thread.uri.toString() === uri.toString() ? old.thread : this.controller.createCommentThread(uri, range, comments);
    if (old && old.thread !== thread) old.thread.dispose();
    thread.range = range;
    thread.comments = comments;
    thread.state = stored.status === 'open' ? vscode.CommentThreadState.Unresolved : vscode.CommentThreadState.Resolved;
    thread.contextValue = stored.status === 'open' ? (stored.sent ? 'loomTaskThread.sent' : 'loomTaskThread.open') : 'loomTaskThread.resolved';
    thread.label = threadLabel(stored, anchor.outdated);
    thread.canReply = true;
    if (!old) thread.collapsibleState = stored.status === 'open' ? vscode.CommentThreadCollapsibleState.Expanded : vscode.CommentThreadCollapsibleState.Collapsed;
    const shown = { dir, task, id: stored.id, file: stored.file, thread };
    this.byThread.set(thread, shown);
    return shown;
  }

  private reportCorrupt(key: string, e: unknown): void {
    const message = e instanceof Error ? e.message : String(e);
    this.log.component('taskReview').error(message);
    if (this.warned.has(key)) return;
    this.warned.add(key);
    void vscode.window.showWarningMessage(t('host.taskReview.cannotRead', { message }));
  }
}
