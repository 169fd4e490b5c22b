import { isAbsolute, relative, resolve } from 'node:path';
import { HANDOFFS_DIR, WritableHandoffSchema } from '../../files/handoff';
import { TASK_ID_PATTERN } from '../../files/vocabulary';
import { t } from '../../messages';
import { specTaskIds } from '../../specdir/loadSpec';
import { stageOnDisk, type PipelineContext, type PipelineEvent } from '../machineTypes';
import { stageOf, type PipelineDefinition } from '../pipelineDefinition';
import { answerWith, type Sender } from './answered';
import { unreadableFile, type RequestProblem } from './requestProblem';

type WriteHandoffEvent = Extract<PipelineEvent, { type: 'WRITE_HANDOFF' }>;

/** Why a handoff cannot be written as asked (for neither or both a stage and a task, unknown, unreadable, leading out of the repository, invalid); undefined when it can. */
export function handoffProblem(def: PipelineDefinition, context: PipelineContext, event: WriteHandoffEvent): RequestProblem | undefined {
  const ask = event.handoff;
  const facts = context.facts;
  if ((ask.stage === undefined) === (ask.task === undefined)) return { message: t('port.handoffOneOf'), code: 'invalid-request' };
  const name = (ask.stage ?? ask.task)!;
  if (!TASK_ID_PATTERN.test(name)) return { message: t('port.badTaskId', { id: name }), code: 'invalid-request' };
  if (ask.stage !== undefined && !stageOf(def, ask.stage)) {
    return { message: t('port.unknownStage', { stage: ask.stage, pipeline: def.type, stages: def.stages.map((s) => s.id).join(', ') }), code: 'unknown-stage' };
  }
  if (ask.task !== undefined && !specTaskIds(facts).includes(ask.task)) {
    return { message: t('port.unknownTask', { specDir: facts.specDir, task: ask.task, tasks: specTaskIds(facts).join(', ') || '-' }), code: 'unknown-task' };
  }
  const file = `${HANDOFFS_DIR}/${name}.json`;
  const unreadable = unreadableFile(facts, file);
  if (unreadable) return unreadable;
  const current = stageOnDisk(def, facts);
  if (ask.currentStageOnly && ask.stage !== current) return { message: t('port.notCurrentStage', { stage: ask.stage ?? name, current: current ?? '?' }), code: 'stage-mismatch' };
  if (ask.refresh && !facts.handoffs.has(name)) return { message: t('port.nothingToRefresh', { file: `${facts.specDir}/${file}` }), code: 'invalid-request', file };
  // An artifact is a path of the repository: never one that leads out of it.
  for (const a of ask.artifacts ?? []) {
    const rel = relative(facts.repoRoot, resolve(facts.repoRoot, a));
    if (rel.startsWith('..') || isAbsolute(rel)) return { message: t('port.artifactEscapes', { path: a }), code: 'invalid-request' };
  }
  if (ask.refresh === 'same-paths') return undefined;
  const parsed = WritableHandoffSchema().safeParse(handoffOf(context, event, '1970-01-01T00:00:00.000Z'));
  if (!parsed.success) return { message: t('port.handoffInvalid', { detail: parsed.error.issues.map((i) => `${i.path.join('.') || 'handoff'}: ${i.message}`).join('; ') }), code: 'invalid-handoff' };
  return undefined;
}

/** The handoff as loom writes it: `task_id` is the stage or task it is for, always (state-store.js writeHandoff). */
function handoffOf(context: PipelineContext, event: WriteHandoffEvent, now: string): Record<string, unknown> {
  const ask = event.handoff;
  const name = (ask.stage ?? ask.task)!;
  const kept: Record<string, unknown> = ask.refresh === true ? { ...context.facts.handoffs.get(name) } : {};
  return {
    ...kept,
    ...ask.data,
    ...(ask.stage !== undefined ? { stage: ask.stage } : {}),
    task_id: name,
    status: ask.status ?? kept.status ?? ask.data?.status ?? 'done',
    // Only a summary given is written (loom's `handoff write` and loom_write_handoff alike).
    ...(ask.summary !== undefined ? { summary: ask.summary } : {}),
    ...(ask.artifacts ? { artifacts: ask.artifacts } : {}),
    written_at: now,
    ...(ask.writtenBy ? { written_by: ask.writtenBy } : {}),
  };
}

/** loom's `handoff write`: one handoff with its fingerprints; `refresh` keeps what it says. */
export function writeHandoff(def: PipelineDefinition, context: PipelineContext, event: PipelineEvent, self: Sender): void {
  if (event.type !== 'WRITE_HANDOFF') return;
  answerWith(self, event.id, () => {
    const ask = event.handoff;
    const name = (ask.stage ?? ask.task)!;
    const written =
      ask.refresh === 'same-paths'
        ? context.store.refreshHandoff(context.facts, name, context.facts.handoffs.get(name)!)
        : context.store.writeHandoff(context.facts, name, WritableHandoffSchema().parse(handoffOf(context, event, event.now)), event.now);
    const here = stageOnDisk(def, context.facts);
    return {
      answer: {
        kind: 'changed',
        intent: 'writeHandoff',
        from: here,
        to: here,
        file: `${HANDOFFS_DIR}/${name}.json`,
        handoff: written,
        refreshed: ask.refresh !== undefined && ask.refresh !== false,
      },
    };
  });
}
