import { userInfo } from 'node:os';
import { isAbsolute, join, relative, sep } from 'node:path';
import * as vscode from 'vscode';
import { LoomError } from '../../core/port/errors';
import { readOptionalText } from '../../core/port/files';
import {
  anchorThread,
  quoteLines,
  isCodeThread,
  reviewGateOf,
  isReviewableFile,
  openThreads,
  REVIEW_COMMENTS_FILE,
  type ReviewComments,
  type ReviewThread,
  readReviewComments,
  updateSpecThreads,
  moveThread,
} from '../../core/port/review';
import { findWorktree } from '../../core/port/specs';
import type { LoomConfig } from '../config';
import type { Log } from '../log';
import type { SpecEntry, SpecRegistry } from '../specs/specRegistry';
import { LoomComment } from './reviewComment';
import { followSpecs, StoredThreads, wholeFileComments } from './wholeFileComments';
import { t } from '../../core/port/messages';

export const REVIEW_CONTROLLER_ID = 'loom.review';

/** Which threads are open on which files: what the counts of the tree and the dashboard show. */
const openSignature = (c: ReviewComments | undefined) =>
  c
    ? openThreads(c)
        .map((t) => `${t.id}:${t.file}`)
        .join('|')
    : '';

/** The thread's title line: resolved, outdated, or who opened it. */
function threadLabel(thread: ReviewThread, outdated: boolean): string {
  if (outdated) return t('host.comments.outdatedQuotedTextChanged');
  if (thread.status === 'resolved') return t('host.comments.resolved');
  return t('host.comments.openStarted', { author: thread.comments[0]?.author ?? '?' });
}

/** Where the feature's code is: its worktree, or the repository when it has none. */
const codeRoot = (e: SpecEntry) => findWorktree(e.spec.snapshot) ?? e.spec.snapshot.repoRoot;

/** Which stored thread an editor thread shows. */
interface ShownThread {
  dir: string;
  stored: ReviewThread;
  thread: vscode.CommentThread;
  outdated: boolean;
}

/**
 * Pull-request comments on a spec's files: one CommentController whose threads are read from each
 * spec's review-comments.json and follow their quoted text as the file changes. Every change goes
 * through the core store (under the run lock); the threads are then drawn again from the file, so
 * what the editor shows is always what is stored.
 */
export class ReviewThreads extends StoredThreads<ShownThread> {
  readonly controller: vscode.CommentController;
  private readonly counts = new Map<string, ReviewComments>();

  constructor(registry: SpecRegistry, config: LoomConfig, log: Log) {
    super(registry, config, log);
    const texts = { prompt: t('host.comments.commentPartSpec'), placeHolder: t('host.comments.whatWrongHereWhatShould') };
    this.controller = this._register(wholeFileComments(REVIEW_CONTROLLER_ID, t('host.comments.loomReview'), texts, (uri) => !!this.locate(uri)));
    this._register(
      followSpecs(
        registry,
        () => this.renderAll(),
        (dir) => this.render(dir),
      ),
    );
    this._register(vscode.workspace.onDidChangeTextDocument((e) => this.followEdits(e.document)));
    this._register(vscode.workspace.onDidSaveTextDocument((doc) => this.keepMoves(doc)));
  }

  /**
   * Where a file takes comments: a reviewable spec file (spec-relative), or, while its spec is at
   * the review gate, a file of the feature's code (worktree-relative, `code`).
   */
  locate(uri: vscode.Uri): { entry: SpecEntry; file: string; code: boolean } | undefined {
    if (uri.scheme !== 'file') return undefined;
    const entry = this.registry.entryFor(uri);
    if (entry) {
      const file = relative(entry.dir, uri.fsPath).split(sep).join('/');
      return isReviewableFile(file) ? { entry, file, code: false } : undefined;
    }
    // Rows know each spec's stage: only a spec at its review gate is read in full.
    for (const row of this.registry.rows()) {
      if (!row.spec.stage || row.spec.stage !== reviewGateOf(row.spec.definition)?.id) continue;
      const e = this.registry.entry(row.dir);
      if (!e) continue;
      const rel = relative(codeRoot(e), uri.fsPath);
      if (rel && !rel.startsWith('..') && !isAbsolute(rel) && !rel.split(sep).includes('.git')) return { entry: e, file: rel.split(sep).join('/'), code: true };
    }
    return undefined;
  }

  get author(): string {
    return this.config.reviewAuthor || userInfo().username || 'reviewer';
  }

  /** Open threads of a spec (or of one of its files), as last read. */
  openCount(dir: string, file?: string): number {
    const c = this.counts.get(dir);
    return c ? openThreads(c, file).length : 0;
  }

  /** The open threads of a spec, as last read (for the dashboard and Advance). */
  open(dir: string): ReviewThread[] {
    const c = this.counts.get(dir);
    return c ? openThreads(c) : [];
  }

  /** The editor thread showing a stored thread (commands and tests reach threads through it). */
  commentThread(dir: string, threadId: string): vscode.CommentThread | undefined {
    return this.shown.get(dir)?.get(threadId)?.thread;
  }

  shownFor(thread: vscode.CommentThread): { dir: string; threadId: string; file: string } | undefined {
    const s = this.byThread.get(thread);
    return s ? { dir: s.dir, threadId: s.stored.id, file: s.stored.file } : undefined;
  }

  /** A spec's threads as stored now; throws, naming the file, when it does not parse. */
  read(entry: Pick<SpecEntry, 'dir' | 'spec'>): ReviewComments {
    return readReviewComments({ dir: entry.dir, specDir: entry.spec.snapshot.specDir });
  }

  /** Changes a spec's threads through the store, then draws them again. */
  update<T>(entry: Pick<SpecEntry, 'dir' | 'spec'>, edit: (c: ReviewComments) => T): T {
    try {
      // The spec reads its files again: its one notification redraws the views that list the threads (the dashboard).
      return updateSpecThreads(entry.spec, edit);
    } finally {
      this.render(entry.dir);
    }
  }

  /** Shows a comment's new mode (editing, or back to preview) in its thread. */
  redrawComment(comment: LoomComment): void {
    const s = this.shown.get(comment.dir)?.get(comment.threadId);
    if (!s) return;
    s.thread.comments = s.thread.comments.map((c) => (c instanceof LoomComment && c.stored.id === comment.stored.id ? comment : c));
  }

  renderAll(): void {
    // Only specs with threads are read in full for them (the listing of a summarized row says which).
    const live = new Set(this.registry.rows().map((e) => e.dir));
    const withThreads = [...live].filter((dir) => this.shown.has(dir) || this.registry.peek(dir)?.spec.snapshot.files.has(REVIEW_COMMENTS_FILE));
    for (const dir of [...this.shown.keys()]) if (!live.has(dir)) this.render(dir);
    for (const dir of withThreads) this.render(dir);
  }

  /** Draws a spec's threads from its review-comments.json; a spec that is gone loses them. */
  render(dir: string): void {
    // The row is enough (its directory, name and state): drawing threads does not read the spec in full.
    const entry = this.registry.peek(dir);
    const previous = this.shown.get(dir) ?? new Map<string, ShownThread>();
    let comments: ReviewComments | undefined;
    if (entry) {
      try {
        comments = readReviewComments({ dir, specDir: entry.spec.snapshot.specDir });
        this.warned.delete(dir);
      } catch (e) {
        this.reportCorrupt(dir, e);
        return; // keep what was shown: the file is somebody's work and must be fixed by hand
      }
    }
    const next = new Map<string, ShownThread>();
    for (const stored of comments?.threads ?? []) {
      const old = previous.get(stored.id);
      previous.delete(stored.id);
      next.set(stored.id, this.draw(dir, stored, old));
    }
    for (const gone of previous.values()) gone.thread.dispose();
    const before = openSignature(this.counts.get(dir));
    if (comments) {
      this.shown.set(dir, next);
      this.counts.set(dir, comments);
    } else {
      this.shown.delete(dir);
      this.counts.delete(dir);
    }
    // The tree redraws the spec's rows only when what it counts changed, not on every reload.
    if (openSignature(comments) !== before) this._onDidChange.fire(dir);
  }

  private draw(dir: string, stored: ReviewThread, old: ShownThread | undefined): ShownThread {
    const entry = this.registry.peek(dir);
    const base = stored.code && entry ? codeRoot(entry) : dir;
    const uri = vscode.Uri.file(join(base, ...stored.file.split('/')));
    const text = this.currentText(uri);
    const anchor = text === undefined ? { line: stored.line, endLine: stored.end_line, outdated: true } : anchorThread(stored, text);
    const range = new vscode.Range(anchor.line - 1, 0, anchor.endLine - 1, 0);
    const comments = stored.comments.map((c) => new LoomComment(dir, stored.id, c));
    const thread = old && old.thread.uri.toString() === uri.toString() ? old.thread : this.controller.createCommentThread(uri, range, comments);
    if (old && old.thread !== thread) old.thread.dispose();
    thread.range = range;
    thread.comments = comments;
    thread.state = stored.status === 'open' ? vscode.CommentThreadState.Unresolved : vscode.CommentThreadState.Resolved;
    thread.contextValue = stored.status === 'open' ? 'loomThread.open' : 'loomThread.resolved';
    thread.label = threadLabel(stored, anchor.outdated);
    thread.canReply = true;
    if (!old) thread.collapsibleState = stored.status === 'open' ? vscode.CommentThreadCollapsibleState.Expanded : vscode.CommentThreadCollapsibleState.Collapsed;
    const shown = { dir, stored, thread, outdated: anchor.outdated };
    this.byThread.set(thread, shown);
    return shown;
  }

  /** The text of an open document (unsaved edits count), else the file on disk. */
  private currentText(uri: vscode.Uri): string | undefined {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    return doc ? doc.getText() : readOptionalText(uri.fsPath);
  }

  /** While a file is edited, its threads move with their text. */
  private followEdits(doc: vscode.TextDocument): void {
    const where = this.locate(doc.uri);
    if (!where) return;
    const text = doc.getText();
    for (const s of this.shown.get(where.entry.dir)?.values() ?? []) {
      if (s.stored.file !== where.file || isCodeThread(s.stored) !== where.code) continue;
      const a = anchorThread(s.stored, text);
      s.thread.range = new vscode.Range(a.line - 1, 0, a.endLine - 1, 0);
      s.thread.label = threadLabel(s.stored, a.outdated);
    }
  }

  /** On save, threads whose text moved are stored at their new lines, so they follow it in git too. */
  private keepMoves(doc: vscode.TextDocument): void {
    const where = this.locate(doc.uri);
    if (!where) return;
    const text = doc.getText();
    const moves = [...(this.shown.get(where.entry.dir)?.values() ?? [])]
      .filter((s) => s.stored.file === where.file && isCodeThread(s.stored) === where.code)
      .map((s) => ({ id: s.stored.id, a: anchorThread(s.stored, text) }))
      .filter(({ id, a }) => {
        const s = this.shown.get(where.entry.dir)!.get(id)!.stored;
        return !a.outdated && (a.line !== s.line || a.endLine !== s.end_line);
      });
    if (!moves.length) return;
    try {
      this.update(where.entry, (c) => moves.forEach(({ id, a }) => moveThread(c, id, a.line, a.endLine, quoteLines(text, a.line, a.endLine))));
    } catch (e) {
      this.log.component('review').warn(`could not keep the moved threads of ${where.file}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private reportCorrupt(dir: string, e: unknown): void {
    const message = e instanceof LoomError || e instanceof Error ? e.message : String(e);
    this.log.component('review').error(message);
    if (this.warned.has(dir)) return;
    this.warned.add(dir);
    void vscode.window.showWarningMessage(t('host.comments.loomCannotReadCommentThreads', { message }));
  }
}
