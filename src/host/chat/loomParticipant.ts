import { join } from 'node:path';
import * as vscode from 'vscode';
import {
  buildAuthoringMessages,
  loadAuthoringTemplates,
  acceptedSpec,
  isAcceptance,
  specNamedIn,
  parseDrafts,
  renderDraft,
  checkDrafts,
  describeChanges,
  draftBase,
  filesWritten,
  type DraftChange,
  featureDiff,
  featureDiffForPrompt,
  AUTHORING,
  commandForStage,
  isAuthoringCommand,
  type AuthoringCommand,
  detectLanguage,
  replySummary,
} from '../../core/port/authoring';
import { ModelRequestError } from '../../core/port/executing';
import { LoomError } from '../../core/port/errors';
import { readOptionalText } from '../../core/port/files';
import type { CommandContext, CommandOutcome } from '../commands/createCommand';
import { respondAnswersReview } from './respondRoute';
import { signalFromToken } from '../lm/cancellation';
import type { SpecEntry } from '../specs/specRegistry';
import { historyMessages, type LoomChatMetadata } from './chatHistory';
import { draftInChat } from './chatDrafting';
import { writePending } from './draftCommands';
import type { PendingDraftStore } from './pendingDrafts';
import { t } from '../../core/port/messages';

export const PARTICIPANT_ID = 'loom.chat';

/** A chat command handled outside the stage drafting (/refine), with the participant's preview and spec lookup. */
export interface ParticipantCommand {
  readonly name: string;
  handle(participant: LoomChatParticipant, request: vscode.ChatRequest, context: vscode.ChatContext, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult>;
}

/** Lines of a draft shown inline in the preview; the rest is one click away in the diff. */
const PREVIEW_LINES = 60;

const fence = (content: string) => '`'.repeat(Math.max(3, ...[...content.matchAll(/`{3,}/g)].map((m) => m[0].length + 1)));
const languageOf = (path: string) => (path.endsWith('.json') ? 'json' : path.endsWith('.md') ? 'markdown' : '');

/**
 * `@loom`: one command per interactive stage that produces files. Each turn works on one spec,
 * with the model the user picked in the chat view; the model's files are checked by the core and
 * shown as a preview; only the user's "write" (or the Write files button) writes them, and the
 * pipeline is never advanced from here: the answer offers Loom: Advance instead.
 */
export class LoomChatParticipant implements vscode.Disposable {
  private readonly finished = new vscode.EventEmitter<vscode.ChatResult>();
  /** Fires when a turn's answer is complete (tests wait on it; the chat view has its own signal). */
  readonly onDidFinishTurn = this.finished.event;

  constructor(
    private readonly ctx: CommandContext,
    private readonly store: PendingDraftStore,
    private readonly commands: readonly ParticipantCommand[] = [],
  ) {}

  dispose(): void {
    this.finished.dispose();
  }

  register(extensionUri: vscode.Uri): vscode.Disposable {
    const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, async (request, context, stream, token) => {
      const result = await this.handle(request, context, stream, token);
      this.finished.fire(result);
      return result;
    });
    participant.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'loom.svg');
    participant.followupProvider = {
      provideFollowups: (result) => {
        const meta = result.metadata as LoomChatMetadata | undefined;
        if (!meta?.pending || !meta.command) return [];
        return [{ prompt: 'write', label: t('host.chat.writeFiles'), command: meta.command }];
      },
    };
    return participant;
  }

  /** Loom: Answer Review from the chat: the fixes run with their progress in a notification; the outcome said here. */
  private async answerReview(entry: SpecEntry, meta: LoomChatMetadata, stream: vscode.ChatResponseStream): Promise<vscode.ChatResult> {
    stream.progress(t('host.chat.reviewHasBlockersImplementerFixes'));
    const o = (await vscode.commands.executeCommand('loom.answerReview', { specDir: entry.dir })) as CommandOutcome | undefined;
    if (!o || o.status === 'cancelled') return { metadata: meta };
    if (o.status !== 'done') return { metadata: meta, errorDetails: { message: o.message } };
    stream.markdown(o.message ?? '');
    if (o.outcome === 'answered') {
      stream.reference(vscode.Uri.joinPath(vscode.Uri.file(entry.dir), 'review-response.md'));
      stream.button({ command: 'loom.advance', arguments: [{ specDir: entry.dir }], title: t('host.chat.loomAdvance') });
    }
    return { metadata: { ...meta, ...(o.outcome === 'answered' ? { wrote: o.finished ?? [] } : {}) } };
  }

  async handle(request: vscode.ChatRequest, context: vscode.ChatContext, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
    await this.ctx.registry.start();
    if (!this.ctx.trust.writable) {
      stream.markdown(t('host.chat.loomWorksSpecFilesOnly'));
      stream.button({ command: 'workbench.trust.manage', title: t('host.chat.manageWorkspaceTrust') });
      return {};
    }
    const own = this.commands.find((c) => c.name === request.command);
    if (own) return own.handle(this, request, context, stream, token);
    const entry = this.resolveSpec(request, context);
    const command = isAuthoringCommand(request.command) ? AUTHORING[request.command] : commandForStage(entry?.spec.stage ?? undefined);
    if (!command) return this.help(stream, entry);
    if (!entry) return this.noSpec(stream, command);

    const meta: LoomChatMetadata = { command: command.name, dir: entry.dir, ...(entry.spec.stage ? { stage: entry.spec.stage } : {}) };
    const pending = this.store.get(entry.dir, command.name);
    // /respond with BLOCKERs to fix: the implementer fixes them (Loom: Answer Review) rather than a draft saying they will be.
    if (command.name === 'respond' && !pending && respondAnswersReview(entry.spec)) return this.answerReview(entry, meta, stream);
    if (pending && isAcceptance(request.prompt)) {
      try {
        const result = await writePending(this.ctx, this.store, pending);
        stream.markdown(
          t('host.chat.wrote2', {
            filesWritten: filesWritten(result)
              .map((f) => `\`${f}\``)
              .join(', '),
            specDir: pending.specDir,
          }),
        );
        for (const f of result.written) stream.reference(vscode.Uri.joinPath(vscode.Uri.file(entry.dir), ...f.split('/')));
        stream.markdown(`\n\n${t('host.chat.pipelineHasNotMovedAdvance')}`);
        stream.button({ command: 'loom.advance', arguments: [{ specDir: entry.dir }], title: t('host.chat.loomAdvance') });
        return { metadata: { ...meta, wrote: result.written } };
      } catch (e) {
        // The chat shows errorDetails itself; saying it again in markdown would repeat it.
        return { metadata: meta, errorDetails: { message: e instanceof Error ? e.message : String(e) } };
      }
    }

    const snapshot = entry.spec.snapshot;
    if (entry.spec.stage !== command.stage) {
      stream.markdown(`> ${t('host.chat.atDraftsFilesNothingWritten', { specDir: snapshot.specDir, stage: entry.spec.stage ?? '?', name: command.name, stage2: command.stage })}\n\n`);
    }
    const bridge = signalFromToken(token);
    try {
      const specText = readOptionalText(join(snapshot.dir, 'spec.md'));
      const templates = loadAuthoringTemplates(snapshot.repoRoot, detectLanguage(specText ?? request.prompt));
      let diff: string | undefined;
      if (command.diff) {
        stream.progress(t('host.chat.readingFeatureSChanges'));
        const d = await featureDiff(snapshot, bridge.signal);
        if (d.error) stream.markdown(`> ${t('host.chat.noDiffPrompt', { error: d.error })}\n\n`);
        diff = featureDiffForPrompt(d);
      }
      const messages = buildAuthoringMessages({
        command,
        templates,
        dir: snapshot.dir,
        specDir: snapshot.specDir,
        stage: entry.spec.stage ?? command.stage,
        request: request.prompt,
        drafts: pending?.drafts ?? [],
        diff,
        history: historyMessages(context, entry.dir, entry.spec.stage ?? undefined),
      });
      const drafted = await draftInChat(
        this.ctx,
        { entry, name: command.name, request, stream, history: context.history, meta },
        {
          purpose: t('host.chat.loomDraftsFilesStageModel', { stage: command.stage }),
          messages,
          command,
          pending: pending?.drafts ?? [],
          check: (drafts) => checkDrafts(snapshot.repoRoot, snapshot.specDir, command, drafts),
          templates,
          signal: bridge.signal,
        },
      );
      if ('stopped' in drafted) return drafted.stopped;
      const { result } = drafted;
      const prose = parseDrafts(result.replies[0]).prose.trim();
      if (!result.proposed) {
        if (!result.replies.join('').trim()) {
          return { metadata: meta, errorDetails: { message: t('host.chat.modelReturnedEmptyAnswerTry') } };
        }
        return { metadata: { ...meta, reply: result.replies.join('\n') } };
      }
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
      this.preview(stream, saved.id, describeChanges(snapshot.dir, result.drafts), result.drafts, result.problems, command);
      return { metadata: { ...meta, pending: saved.id, reply: `${prose}\n\n${result.drafts.map(renderDraft).join('\n')}` } };
    } catch (e) {
      if (token.isCancellationRequested) return { metadata: meta };
      const message = e instanceof ModelRequestError ? t('run.pipeline.modelRefused', { code: e.code, detail: e.message }) : e instanceof LoomError || e instanceof Error ? e.message : String(e);
      this.ctx.log.component('chat').error(`/${command.name} on ${snapshot.specDir}: ${message}`);
      return { metadata: meta, errorDetails: { message: `${t('host.chat.loomCouldNotFinish', { name: command.name })} ${message}` } };
    } finally {
      bridge.dispose();
    }
  }

  preview(
    stream: vscode.ChatResponseStream,
    id: string,
    changes: readonly DraftChange[],
    drafts: readonly { path: string; content: string }[],
    problems: readonly string[],
    command: AuthoringCommand,
  ): void {
    stream.markdown(`\n\n---\n\n### ${t('host.chat.filesWrite')}\n\n`);
    for (const change of changes) {
      const draft = drafts.find((d) => d.path === change.path)!;
      const what =
        change.kind === 'new'
          ? t('host.chat.newLines', { added: change.added })
          : change.kind === 'changed'
            ? t('host.chat.changedLines', { added: change.added, removed: change.removed })
            : t('host.chat.unchanged');
      stream.markdown(`**${change.path}** — ${what}\n\n`);
      if (change.kind !== 'unchanged') {
        const lines = draft.content.split('\n');
        const shown = lines.length > PREVIEW_LINES ? `${lines.slice(0, PREVIEW_LINES).join('\n')}\n` : draft.content;
        const f = fence(shown);
        stream.markdown(`${f}${languageOf(change.path)}\n${shown.replace(/\n$/, '')}\n${f}\n`);
        if (lines.length > PREVIEW_LINES) stream.markdown(`_${t('host.chat.moreLinesShowDiffShows', { count: lines.length - PREVIEW_LINES })}_\n\n`);
        stream.button({ command: 'loom.showDraftDiff', arguments: [{ id, path: change.path }], title: t('host.chat.showDiff', { path: change.path }) });
      }
    }
    if (problems.length) {
      stream.markdown(`\n\n**${t('host.chat.loomSChecksStillFind', { problemsCount: problems.length })}**\n\n${problems.map((p) => `- ${p}`).join('\n')}\n\n${t('host.chat.youCanWriteFilesFix')}\n\n`);
    } else {
      stream.markdown(`\n\n${command.name === 'refine' ? t('host.chat.theseFilesPassChecksStages') : t('host.chat.theseFilesPassLoomS', { stage: command.stage })} `);
    }
    stream.markdown(t('host.chat.replyWriteWriteThemSay'));
    stream.button({ command: 'loom.writeDrafts', arguments: [{ id }], title: problems.length ? t('host.chat.writeFilesAnyway') : t('host.chat.writeFiles2') });
  }

  /**
   * The spec a turn is about: named in the prompt, else (for a "write") the one whose drafts the
   * conversation just previewed, else the one in focus (selected in the Loom view in sight, else
   * the active editor's), else the only spec at the command's stage.
   */
  resolveSpec(request: vscode.ChatRequest, context: vscode.ChatContext): SpecEntry | undefined {
    const entries = this.ctx.registry.entries();
    const named = specNamedIn(
      request.prompt,
      entries.map((e) => e.spec.snapshot.specDir),
    );
    if (named) {
      const found = entries.find((e) => e.spec.snapshot.specDir === named);
      if (found) return found;
    }
    if (isAcceptance(request.prompt)) {
      const turns = context.history.filter((t): t is vscode.ChatResponseTurn => t instanceof vscode.ChatResponseTurn).map((t) => (t.result.metadata ?? {}) as LoomChatMetadata);
      const previewed = acceptedSpec(turns, request.command, (id) => this.store.byId(id) !== undefined);
      const found = previewed ? this.ctx.registry.entry(previewed) : undefined;
      if (found) return found;
    }
    const focused = this.ctx.view.specInFocus();
    if (focused) return focused;
    const command = isAuthoringCommand(request.command) ? AUTHORING[request.command] : undefined;
    const atStage = command ? entries.filter((e) => e.spec.stage === command.stage) : [];
    return atStage.length === 1 ? atStage[0] : entries.length === 1 ? entries[0] : undefined;
  }

  private noSpec(stream: vscode.ChatResponseStream, command: AuthoringCommand): vscode.ChatResult {
    const atStage = this.ctx.registry.entries().filter((e) => e.spec.stage === command.stage);
    if (command.name === 'brainstorm' && !atStage.length) {
      stream.markdown(t('host.chat.noFeatureWaitingBrainstormingStart'));
      stream.button({ command: 'loom.newFeature', title: t('host.chat.loomNewFeature') });
      return {};
    }
    stream.markdown(t('host.chat.whichFeatureSelectLoomView', { name: command.name, replace: atStage[0]?.spec.snapshot.name.replace(/^.*\+/, '') ?? 'login' }));
    if (atStage.length) stream.markdown(`\n\n${t('host.chat.at', { stage: command.stage })}\n${atStage.map((e) => `- \`${e.spec.snapshot.specDir}\``).join('\n')}`);
    return {};
  }

  private help(stream: vscode.ChatResponseStream, entry: SpecEntry | undefined): vscode.ChatResult {
    const where = entry ? t('host.chat.atWhichNoLoomCommand', { specDir: entry.spec.snapshot.specDir, stage: entry.spec.stage ?? '?' }) : '';
    stream.markdown(
      `${where}\n\n${t('host.chat.loomDraftsFilesLoomS')}\n\n` +
        `- \`/brainstorm\` — spec.md, requirements.json\n- \`/expand\` — requirements.json (15 behavior categories, test plans)\n` +
        `- \`/plan\` — plan.md, tasks/TN.md, traceability.json\n- \`/review\` — review-request.md\n- \`/respond\` — review-response.md`,
    );
    return {};
  }
}
