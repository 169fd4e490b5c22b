import * as vscode from 'vscode';
import { replySummary, parseDrafts, describeChanges, draftBase, filesWritten, type DraftChange, isAcceptance, loadAuthoringTemplates, detectLanguage } from '../../core/port/authoring';
import { ModelRequestError } from '../../core/port/executing';
import { LoomError } from '../../core/port/errors';
import { isCodeThread, resolveRefinedThreads, checkRefinedDrafts, refineCommand, buildRefineMessages, threadAnswers, stageOfFile, type ReviewThread } from '../../core/port/review';
import type { CommandContext } from '../commands/createCommand';
import { historyMessages, type LoomChatMetadata } from '../chat/chatHistory';
import { draftInChat } from '../chat/chatDrafting';
import { writePending } from '../chat/draftCommands';
import type { LoomChatParticipant, ParticipantCommand } from '../chat/loomParticipant';
import type { PendingDrafts, PendingDraftStore } from '../chat/pendingDrafts';
import { Disposable } from '../lifecycle';
import { signalFromToken } from '../lm/cancellation';
import type { SpecEntry } from '../specs/specRegistry';
import type { ReviewThreads } from './reviewThreads';
import { t } from '../../core/port/messages';

/** What a refine proposal answers: its threads, the model's line for each, the size of each change. */
interface RefineProposal {
  threadIds: string[];
  answers: Map<string, string>;
  changes: DraftChange[];
  model: string;
  /** The files of the proposal already written (accepted one by one). */
  done?: Set<string>;
}

/** `write spec.md plan.md`: accept some of the files, by name. */
const ACCEPT_FILES = /^\s*(?:write|accept|写入|接受)\s+(.+?)\s*$/i;
const THREAD_REF = /#(t[0-9a-f]+)\b/g;

/**
 * `@loom /refine`: the open comment threads of a spec (of one file, or one thread, when the
 * prompt names them) go to the model the user picked, with their quoted lines and the stage of
 * each file; the files it rewrites are checked by their stages' checks (sent back at most twice)
 * and previewed as any draft is. Accepting writes them; each answered thread then gets a reply
 * saying what changed and is resolved. The pipeline does not move.
 */
export class RefineCommand extends Disposable implements ParticipantCommand {
  readonly name = 'refine';
  private readonly proposals = new Map<string, RefineProposal>();

  constructor(
    private readonly ctx: CommandContext,
    private readonly store: PendingDraftStore,
    private readonly threads: ReviewThreads,
  ) {
    super();
    this._register(store.onDidWrite(({ pending, result }) => this.answerThreads(pending, result.written)));
  }

  async handle(
    participant: LoomChatParticipant,
    request: vscode.ChatRequest,
    context: vscode.ChatContext,
    stream: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
  ): Promise<vscode.ChatResult> {
    const entry = participant.resolveSpec(request, context);
    if (!entry) {
      stream.markdown(t('host.chat.whichFeatureSelectLoomView', { name: 'refine', replace: 'login' }));
      return {};
    }
    const meta: LoomChatMetadata = { command: this.name, dir: entry.dir, ...(entry.spec.stage ? { stage: entry.spec.stage } : {}) };
    const pending = this.store.get(entry.dir, this.name);
    if (pending) {
      const chosen = this.acceptedFiles(request.prompt, pending);
      if (chosen) return this.write(stream, entry, pending, chosen, meta);
    }
    let all: ReviewThread[];
    try {
      all = this.threads.read(entry).threads;
    } catch (e) {
      return { metadata: meta, errorDetails: { message: e instanceof Error ? e.message : String(e) } };
    }
    const named = [...request.prompt.matchAll(THREAD_REF)].map((m) => m[1]);
    const files = [...new Set(all.map((t) => t.file))].filter((f) => new RegExp(`(?:^|[\\s\`'"])${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=$|[\\s\`'",.])`).test(request.prompt));
    // The feature's code is reviewed into review-feedback.md, not refined here: only spec files.
    const open = all.filter((t) => t.status === 'open' && !isCodeThread(t) && (named.length ? named.includes(t.id) : files.length ? files.includes(t.file) : true));
    if (!open.length) {
      stream.markdown(t('host.comments.hasNoOpenCommentThread', { specDir: entry.spec.snapshot.specDir }));
      return { metadata: meta };
    }
    const snapshot = entry.spec.snapshot;
    const threadFiles = [...new Set(open.map((t) => t.file))];
    const command = refineCommand(threadFiles, entry.spec.stage ?? '?');
    const language = detectLanguage(open.flatMap((t) => t.comments.map((c) => c.body)).join('\n') + request.prompt);
    const templates = loadAuthoringTemplates(snapshot.repoRoot, language);
    const stageOf = (f: string) => stageOfFile(entry.spec.definition, f);
    stream.markdown(`> ${t('host.comments.openThreadSNothingWritten', { openCount: open.length, threadFiles: threadFiles.join(', ') })}\n\n`);
    const bridge = signalFromToken(token);
    try {
      const request_ = request.prompt.replace(THREAD_REF, '').replace(snapshot.specDir, '').trim();
      const messages = [
        ...historyMessages(context, entry.dir, entry.spec.stage ?? undefined),
        ...buildRefineMessages({ repoRoot: snapshot.repoRoot, language, dir: snapshot.dir, specDir: snapshot.specDir, threads: open, stageOf, request: request_ }),
      ];
      const drafted = await draftInChat(
        this.ctx,
        { entry, name: this.name, request, stream, history: context.history, meta },
        {
          purpose: t('host.comments.loomRefinesSpecFilesComment'),
          messages,
          command,
          pending: [],
          check: (drafts) => checkRefinedDrafts(snapshot.repoRoot, snapshot.specDir, command, drafts),
          templates,
          signal: bridge.signal,
        },
      );
      if ('stopped' in drafted) return drafted.stopped;
      const { result } = drafted;
      if (!result.proposed) {
        if (!result.replies.join('').trim()) return { metadata: meta, errorDetails: { message: t('host.chat.modelReturnedEmptyAnswerTry') } };
        return { metadata: { ...meta, reply: result.replies.join('\n') } };
      }
      const prose = result.replies.map((r) => parseDrafts(r).prose).join('\n');
      const saved = this.store.set({
        dir: entry.dir,
        specDir: snapshot.specDir,
        repoRoot: snapshot.repoRoot,
        command,
        drafts: result.drafts,
        base: draftBase(snapshot.dir, result.drafts),
        summary: replySummary(result.replies),
        problems: result.problems,
      });
      const changes = describeChanges(snapshot.dir, result.drafts);
      if (pending) this.proposals.delete(pending.id); // replaced by this proposal
      this.proposals.set(saved.id, { threadIds: open.map((t) => t.id), answers: threadAnswers(prose), changes, model: request.model.name });
      participant.preview(stream, saved.id, changes, result.drafts, result.problems, command);
      const changed = changes.filter((c) => c.kind !== 'unchanged');
      if (changed.length > 1) {
        stream.markdown(`\n\n${t('host.comments.acceptOneFileAtTime', { path: changed[0].path })}\n\n`);
        for (const c of changed) stream.button({ command: 'loom.acceptRefinedFile', arguments: [{ id: saved.id, path: c.path }], title: t('host.comments.accept', { path: c.path }) });
      }
      return { metadata: { ...meta, pending: saved.id, reply: result.replies.join('\n') } };
    } catch (e) {
      if (token.isCancellationRequested) return { metadata: meta };
      const message = e instanceof ModelRequestError ? t('run.pipeline.modelRefused', { code: e.code, detail: e.message }) : e instanceof Error ? e.message : String(e);
      this.ctx.log.component('review').error(`/refine on ${snapshot.specDir}: ${message}`);
      return { metadata: meta, errorDetails: { message: `${t('host.chat.loomCouldNotFinish', { name: 'refine' })} ${message}` } };
    } finally {
      bridge.dispose();
    }
  }

  /** The files a reply accepts: all of them for "write", the named ones for "write spec.md". */
  private acceptedFiles(prompt: string, pending: PendingDrafts): string[] | undefined {
    if (isAcceptance(prompt)) return pending.drafts.map((d) => d.path);
    const m = ACCEPT_FILES.exec(prompt);
    if (!m) return undefined;
    const named = pending.drafts.map((d) => d.path).filter((p) => m[1].split(/[\s,，]+/).includes(p));
    return named.length ? named : undefined;
  }

  /**
   * Writes the accepted files of a proposal. The rest stays pending under the same id, so that
   * its files can still be accepted one by one; their threads stay open until then.
   */
  async writeFiles(pending: PendingDrafts, paths: readonly string[]): Promise<string[]> {
    const chosen = { ...pending, drafts: pending.drafts.filter((d) => paths.includes(d.path)) };
    const result = await writePending(this.ctx, this.store, chosen);
    this.store.restore({ ...pending, drafts: pending.drafts.filter((d) => !paths.includes(d.path)) });
    return filesWritten(result);
  }

  private async write(stream: vscode.ChatResponseStream, entry: SpecEntry, pending: PendingDrafts, paths: string[], meta: LoomChatMetadata): Promise<vscode.ChatResult> {
    try {
      const written = await this.writeFiles(pending, paths);
      stream.markdown(t('host.chat.wrote2', { filesWritten: written.map((f) => `\`${f}\``).join(', ') || '-', specDir: pending.specDir }));
      for (const f of written) stream.reference(vscode.Uri.joinPath(vscode.Uri.file(entry.dir), ...f.split('/')));
      stream.markdown(`\n\n${t('host.comments.eachThreadTheseFilesHas')}`);
      return { metadata: { ...meta, wrote: written } };
    } catch (e) {
      return { metadata: meta, errorDetails: { message: e instanceof LoomError || e instanceof Error ? e.message : String(e) } };
    }
  }

  /** After a refine's files were written: its threads on them get their reply and are resolved. */
  private answerThreads(pending: PendingDrafts, written: readonly string[]): void {
    const proposal = this.proposals.get(pending.id);
    if (pending.command.name !== this.name || !proposal) return;
    // A proposal accepted file by file keeps answering the threads of the files still to come.
    const done = (proposal.done ??= new Set());
    for (const f of written) done.add(f);
    const remaining = proposal.changes.filter((c) => !done.has(c.path));
    if (remaining.length === 0) this.proposals.delete(pending.id);
    const entry = this.ctx.registry.entry(pending.dir);
    if (!entry) return;
    const delta = new Map(proposal.changes.map((c) => [c.path, c]));
    try {
      const at = { dir: entry.dir, specDir: entry.spec.snapshot.specDir };
      resolveRefinedThreads(at, proposal.threadIds, written, proposal.answers, {
        author: `Loom (${proposal.model})`,
        now: new Date().toISOString(),
        changed: (file, answer) => {
          const d = delta.get(file);
          const size = d ? t('host.comments.changedLines', { file, added: d.added, removed: d.removed }) : t('host.comments.changed', { file });
          return answer ? `${size} ${answer}` : size;
        },
      });
    } catch (e) {
      this.ctx.log.component('review').error(`could not resolve the refined threads of ${pending.specDir}: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      this.threads.render(entry.dir);
    }
  }
}
