import * as vscode from 'vscode';
import type { Draft, DraftBase, WrittenDrafts, AuthoringCommand } from '../../core/port/authoring';
import { t } from '../../core/port/messages';

/** Drafts shown in the chat and not written yet: one set per spec and command. */
export interface PendingDrafts {
  id: string;
  /** Absolute spec directory. */
  dir: string;
  specDir: string;
  repoRoot: string;
  command: AuthoringCommand;
  drafts: Draft[];
  base: DraftBase;
  /** The model's words, recorded as the handoff's summary. */
  summary: string;
  problems: string[];
}

/**
 * The drafts a conversation has proposed, kept in memory only: they are proposals, and a reload
 * simply asks again. A new proposal for the same spec and command replaces the old one, and the
 * `loom-draft:` documents of the preview read from here.
 */
export class PendingDraftStore implements vscode.TextDocumentContentProvider {
  static readonly scheme = 'loom-draft';
  private readonly byKey = new Map<string, PendingDrafts>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly wrote = new vscode.EventEmitter<{ pending: PendingDrafts; result: WrittenDrafts }>();
  /** Fires after accepted drafts were written (by "write" in the chat or the Write files button). */
  readonly onDidWrite = this.wrote.event;
  private next = 1;

  private static key(dir: string, command: string): string {
    return `${dir}|${command}`;
  }

  get(dir: string, command: string): PendingDrafts | undefined {
    return this.byKey.get(PendingDraftStore.key(dir, command));
  }

  byId(id: string): PendingDrafts | undefined {
    return [...this.byKey.values()].find((p) => p.id === id);
  }

  set(p: Omit<PendingDrafts, 'id'>): PendingDrafts {
    const entry = { ...p, id: `d${this.next++}` };
    const old = this.byKey.get(PendingDraftStore.key(p.dir, p.command.name));
    this.byKey.set(PendingDraftStore.key(p.dir, p.command.name), entry);
    if (old) for (const d of old.drafts) this.changed.fire(this.uri(old, d.path));
    return entry;
  }

  /** Puts back what is still pending of a proposal, under its id, after some of its files were written. */
  restore(p: PendingDrafts): void {
    if (p.drafts.length === 0 || this.byKey.has(PendingDraftStore.key(p.dir, p.command.name))) return;
    this.byKey.set(PendingDraftStore.key(p.dir, p.command.name), p);
  }

  delete(p: PendingDrafts): void {
    this.byKey.delete(PendingDraftStore.key(p.dir, p.command.name));
  }

  all(): PendingDrafts[] {
    return [...this.byKey.values()];
  }

  /** The read-only document showing one draft: `loom-draft:/<id>/<spec-relative path>`. */
  uri(p: PendingDrafts, path: string): vscode.Uri {
    return vscode.Uri.from({ scheme: PendingDraftStore.scheme, path: `/${p.id}/${path}` });
  }

  /** An empty document named like the file, the left side of a new file's diff. */
  emptyUri(path: string): vscode.Uri {
    return vscode.Uri.from({ scheme: PendingDraftStore.scheme, path: `/empty/${path}` });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const [, id, ...rest] = uri.path.split('/');
    if (id === 'empty') return '';
    const p = this.byId(id);
    const draft = p?.drafts.find((d) => d.path === rest.join('/'));
    return draft?.content ?? t('host.chat.draftNoLongerPendingWas');
  }

  /** Called by the one writer of drafts, once they are on disk. */
  written(pending: PendingDrafts, result: WrittenDrafts): void {
    this.wrote.fire({ pending, result });
  }

  dispose(): void {
    this.changed.dispose();
    this.wrote.dispose();
    this.byKey.clear();
  }
}
