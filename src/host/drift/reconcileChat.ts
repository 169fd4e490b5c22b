import * as vscode from 'vscode';
import { describeChanges, draftBase, filesWritten, isAcceptance, parseDrafts, replySummary, loadAuthoringTemplates, detectLanguage } from '../../core/port/authoring';
import { buildReconcileMessages, checkReconcileDrafts, driftDiff, driftSummary, reconcileCommand } from '../../core/port/drift';
import { ModelRequestError } from '../../core/port/executing';
import { readOptionalText } from '../../core/port/files';
import { t } from '../../core/port/messages';
import { stageWithRole } from '../../core/port/views';
import type { CommandContext } from '../commands/createCommand';
import { historyMessages, type LoomChatMetadata } from '../chat/chatHistory';
import { draftInChat } from '../chat/chatDrafting';
import { writePending } from '../chat/draftCommands';
import type { LoomChatParticipant, ParticipantCommand } from '../chat/loomParticipant';
import type { PendingDraftStore } from '../chat/pendingDrafts';
import { signalFromToken } from '../lm/cancellation';
import type { SpecDrifts } from './specDrifts';

/**
 * `@loom /reconcile`: a drifted spec's files and the diff of its code since the baseline go to the
 * model the person picked; its smallest amendment (ids kept, a behavior the code lost superseded)
 * is checked by the same validators as every draft, sent back while they find problems, and
 * previewed with Show diff. "write" (or Write files) writes it and moves the baseline, one change
 * under the spec's run lock (writeReconcile).
 */
export class ReconcileCommand implements ParticipantCommand {
  readonly name = 'reconcile';

  constructor(
    private readonly ctx: CommandContext,
    private readonly store: PendingDraftStore,
    private readonly drifts: SpecDrifts,
  ) {}

  async handle(
    participant: LoomChatParticipant,
    request: vscode.ChatRequest,
    context: vscode.ChatContext,
    stream: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
  ): Promise<vscode.ChatResult> {
    const entry = participant.resolveSpec(request, context);
    if (!entry) {
      stream.markdown(t('host.chat.whichFeatureSelectLoomView', { name: this.name, replace: 'login' }));
      return {};
    }
    const snapshot = entry.spec.snapshot;
    const meta: LoomChatMetadata = { command: this.name, dir: entry.dir, ...(entry.spec.stage ? { stage: entry.spec.stage } : {}) };
    const pending = this.store.get(entry.dir, this.name);
    if (pending && isAcceptance(request.prompt)) {
      try {
        const result = await writePending(this.ctx, this.store, pending);
        stream.markdown(
          t('host.drift.reconciled', {
            files:
              filesWritten(result)
                .map((f) => `\`${f}\``)
                .join(', ') || '-',
            specDir: snapshot.specDir,
          }),
        );
        for (const f of result.written) stream.reference(vscode.Uri.joinPath(vscode.Uri.file(entry.dir), ...f.split('/')));
        return { metadata: { ...meta, wrote: result.written } };
      } catch (e) {
        return { metadata: meta, errorDetails: { message: e instanceof Error ? e.message : String(e) } };
      }
    }
    const sync = stageWithRole(entry.spec.definition, 'sync');
    await this.drifts.whenRead();
    const drift = this.drifts.drift(entry.dir);
    if (!sync || entry.spec.stage !== sync.id || drift?.status !== 'drifted') {
      stream.markdown(t('host.drift.nothingToReconcile', { specDir: snapshot.specDir, summary: drift ? driftSummary(drift) : (entry.spec.stage ?? '?') }));
      return { metadata: meta };
    }
    const command = reconcileCommand(sync.id);
    const bridge = signalFromToken(token);
    try {
      stream.progress(t('host.drift.readingDiff'));
      const diff = await driftDiff(snapshot.repoRoot, drift, bridge.signal);
      const language = detectLanguage(readOptionalText(`${snapshot.dir}/spec.md`) ?? request.prompt);
      const templates = loadAuthoringTemplates(snapshot.repoRoot, language);
      const messages = [
        ...historyMessages(context, entry.dir, entry.spec.stage ?? undefined),
        ...buildReconcileMessages({ command, dir: snapshot.dir, specDir: snapshot.specDir, drift, diff, request: request.prompt.replace(snapshot.specDir, ''), language }),
      ];
      const drafted = await draftInChat(
        this.ctx,
        { entry, name: this.name, request, stream, history: context.history, meta },
        {
          purpose: t('host.drift.modelPurpose'),
          messages,
          command,
          pending: pending?.drafts ?? [],
          check: (drafts) => checkReconcileDrafts(snapshot, command, drafts, readOptionalText),
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
      participant.preview(stream, saved.id, describeChanges(snapshot.dir, result.drafts), result.drafts, result.problems, command);
      const prose = parseDrafts(result.replies[0]).prose.trim();
      return { metadata: { ...meta, pending: saved.id, reply: prose } };
    } catch (e) {
      if (token.isCancellationRequested) return { metadata: meta };
      const message = e instanceof ModelRequestError ? t('run.pipeline.modelRefused', { code: e.code, detail: e.message }) : e instanceof Error ? e.message : String(e);
      this.ctx.log.component('drift').error(`/reconcile on ${snapshot.specDir}: ${message}`);
      return { metadata: meta, errorDetails: { message: `${t('host.chat.loomCouldNotFinish', { name: this.name })} ${message}` } };
    } finally {
      bridge.dispose();
    }
  }
}
