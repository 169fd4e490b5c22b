import * as vscode from 'vscode';
import type { ReviewComment } from '../../core/port/review';
import { t } from '../../core/port/messages';

/** One comment as the editor shows it, remembering which thread and stored comment it is. */
export class LoomComment implements vscode.Comment {
  body: string | vscode.MarkdownString;
  mode = vscode.CommentMode.Preview;
  readonly author: vscode.CommentAuthorInformation;
  readonly timestamp: Date;
  readonly contextValue = 'loomComment';
  label?: string;
  /** The text before an edit began, put back on Cancel. */
  private saved?: string;

  constructor(
    readonly dir: string,
    readonly threadId: string,
    readonly stored: ReviewComment,
  ) {
    this.body = new vscode.MarkdownString(stored.body);
    this.author = { name: stored.author };
    this.timestamp = new Date(stored.edited_at ?? stored.created_at);
    if (stored.edited_at) this.label = t('host.comments.edited');
  }

  beginEdit(): void {
    this.saved = this.text;
    this.mode = vscode.CommentMode.Editing;
    this.body = this.saved;
  }

  cancelEdit(): void {
    this.mode = vscode.CommentMode.Preview;
    this.body = new vscode.MarkdownString(this.saved ?? this.stored.body);
  }

  get text(): string {
    return typeof this.body === 'string' ? this.body : this.body.value;
  }
}
