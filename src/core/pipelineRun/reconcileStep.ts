import { buildRepairMessage, loadAuthoringTemplates } from '../authoring/authoringPrompts';
import { replySummary, type Draft } from '../authoring/draftBlocks';
import { draftBase } from '../authoring/draftWrite';
import { ModelUnavailableError, type ChatModel } from '../executing/dispatch/chatModel';
import { detectLanguage } from '../executing/dispatch/prompts/promptTemplates';
import { readOptionalText } from '../fs/readOptional';
import { driftSubjectOf } from '../drift/driftSubjects';
import { scanDrift } from '../drift/driftScan';
import { driftSummary } from '../drift/driftText';
import { buildReconcileMessages, checkReconcileDrafts, driftDiff, reconcileCommand, writeReconcile } from '../drift/reconcile';
import { t } from '../messages';
import { stageWithRole } from '../pipeline/stageRoles';
import type { SpecPipeline } from '../repository/specPipeline';
import type { RunStop, StageRecord } from './runStop';
import { CORRECTION_ROUNDS, runDraftingStep } from './draftingStep';
import { stopped } from './tasksStop';
import { estimateTokens } from './tokens';

/** What the step takes of the run's ports (RunPorts), named here so the run and the step do not import each other. */
export interface ReconcilePorts {
  mode: 'supervised' | 'autopilot';
  signal: AbortSignal;
  model(): Promise<ChatModel>;
  reviewDrafts(stage: string, drafts: readonly Draft[], problems: readonly string[]): Promise<boolean>;
}

/**
 * The run's step after synced, when the person asked for it (RunPorts.reconcile): the spec's
 * drift read, and a drifted spec reconciled as `@loom /reconcile` does it: the model's smallest
 * amendment, checked (sent back at most twice), shown in Supervised and written on Write, or
 * written in Autopilot when it passes; then the baseline moves. A spec true to its code is said
 * so; a stop says why. Undefined: nothing stops the run here.
 */
export async function reconcileStep(spec: SpecPipeline, ports: ReconcilePorts, stage: string, record: StageRecord, say: (l: string) => void): Promise<Omit<RunStop, 'stages'> | undefined> {
  const sync = stageWithRole(spec.definition, 'sync');
  if (!sync) return undefined;
  // The sync before it was a request: the spec took what it wrote already.
  const snapshot = spec.snapshot;
  const drift = (await scanDrift(snapshot.repoRoot, [driftSubjectOf(spec)], { signal: ports.signal })).specs[0];
  if (!drift || drift.status !== 'drifted') {
    say(t('run.reconcile.nothing', { summary: drift ? driftSummary(drift) : '-' }));
    return undefined;
  }
  say(t('run.reconcile.drifted', { summary: driftSummary(drift) }));
  let model: ChatModel;
  try {
    model = await ports.model();
  } catch (e) {
    return stopped('model-unavailable', stage, t('run.pipeline.noModel', { stage, reason: e instanceof ModelUnavailableError ? (e.reason ?? e.message) : e instanceof Error ? e.message : String(e) }));
  }
  const command = reconcileCommand(sync.id);
  const diff = await driftDiff(snapshot.repoRoot, drift, ports.signal);
  const language = detectLanguage(readOptionalText(`${snapshot.dir}/spec.md`) ?? '');
  const templates = loadAuthoringTemplates(snapshot.repoRoot, language);
  const messages = buildReconcileMessages({ command, dir: snapshot.dir, specDir: snapshot.specDir, drift, diff, request: '', language });
  const drafted = await runDraftingStep(
    {
      model,
      messages,
      specDir: snapshot.specDir,
      command,
      pending: [],
      check: (drafts) => checkReconcileDrafts(snapshot, command, drafts, readOptionalText),
      repairMessage: (p) => buildRepairMessage(templates, p),
    },
    ports.signal,
    stage,
    say,
  );
  if ('stop' in drafted) return drafted.stop;
  const { result } = drafted;
  record.rounds += 1 + result.repairs;
  record.tokens += estimateTokens([...messages.map((m) => m.content), ...result.replies]);
  if (!result.proposed || !result.drafts.length) return stopped('model-refused', stage, t('run.pipeline.noDrafts', { command: command.name, reply: result.replies.join('\n').slice(0, 300) }));
  if (result.problems.length) return stopped('check-failed', stage, t('run.pipeline.checksFail', { rounds: CORRECTION_ROUNDS, problems: result.problems.join('; ') }));
  if (ports.mode === 'supervised' && !(await ports.reviewDrafts(stage, result.drafts, result.problems))) return stopped('drafts-declined', stage, t('run.pipeline.draftsWaiting', { stage }));
  if (ports.signal.aborted) return stopped('stopped', stage, t('run.pipeline.stopped', { stage }));
  const written = await writeReconcile(
    spec,
    command,
    result.drafts,
    draftBase(snapshot.dir, result.drafts),
    replySummary(result.replies),
    `Loom: Run Pipeline (${ports.mode})`,
    new Date().toISOString(),
  );
  record.wrote.push(...written.written, 'pipeline.state.json');
  say(t('run.reconcile.wrote', { files: written.written.join(', ') || '-', commit: written.baseline.commit.slice(0, 7) }));
  return undefined;
}
