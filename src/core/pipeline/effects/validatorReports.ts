import { t } from '../../messages';
import type { Answer } from '../../port/answer';
import type { SpecFile } from '../../store/specFiles';
import { checkStage as checkStageFiles } from '../../validators/stageCheck';
import { convergenceRound, writeConvergence } from '../../validators/convergence';
import { writeArtifactAnalysis } from '../../validators/artifactAnalysis';
import { OMISSION_HUNTER_FILE, writeOmissionHunt } from '../../validators/omissionHunt';
import { stageOnDisk, type PipelineContext, type PipelineEvent } from '../machineTypes';
import type { PipelineDefinition } from '../pipelineDefinition';
import type { RefusalCode } from '../refusals';
import { answerWith, type Sender } from './answered';
import { unreadableFile } from './requestProblem';

/** Check Stage: the current stage's validators, writing the reports loom writes, and a passing report stage's handoff. */
export function checkStage(def: PipelineDefinition, context: PipelineContext, event: PipelineEvent, self: Sender): void {
  if (event.type !== 'CHECK_STAGE') return;
  answerWith(self, event.id, () => {
    const stage = stageOnDisk(def, context.facts);
    const check = checkStageFiles(
      { snapshot: context.facts, definition: def, stage },
      event.now,
      (name, handoff) => context.store.writeHandoff(context.facts, name, handoff, event.now),
      (files) => context.store.writeReport(context.facts, files),
    );
    return { answer: { kind: 'changed', intent: 'checkStage', from: stage, to: stage, check } };
  });
}

/**
 * A validator's report (analyze-artifacts, converge, the omission hunt), written as loom's
 * scripts write it, from the facts read under the request's lock, stamped with its `now`.
 */
export function writeReport(def: PipelineDefinition, context: PipelineContext, event: PipelineEvent, self: Sender): void {
  if (event.type !== 'WRITE_REPORT') return;
  const facts = context.facts;
  const now = event.now;
  const at = stageOnDisk(def, facts);
  const write = (files: readonly SpecFile[]) => context.store.writeReport(facts, files);
  const refuse = (message: string, code: RefusalCode, file?: string): Answer => ({
    kind: 'refused',
    code,
    codes: [code],
    message,
    reasons: [],
    remedies: [],
    stage: at,
    ...(file ? { file } : {}),
  });
  answerWith(self, event.id, () => {
    const ask = event.report;
    if (ask.kind === 'artifactAnalysis') {
      const { report, written } = writeArtifactAnalysis(facts, { now, write, ...(ask.override ? { override: ask.override } : {}) });
      return { answer: { kind: 'changed', intent: 'analyzeArtifacts', from: at, to: at, report, written } };
    }
    if (ask.kind === 'convergence') {
      const next = convergenceRound(facts) + 1;
      // The round comes from pipeline.state.json; a different one means the caller lost count.
      if (ask.round !== undefined && ask.round !== next) return { answer: refuse(t('mcp.converge.wrongRound', { round: ask.round, specDir: facts.specDir, next }), 'wrong-round') };
      return { answer: { kind: 'changed', intent: 'converge', from: at, to: at, outcome: writeConvergence(facts, { now, write }) } };
    }
    const broken = unreadableFile(facts, OMISSION_HUNTER_FILE);
    if (broken) return { answer: refuse(broken.message, broken.code, broken.file) };
    return { answer: { kind: 'changed', intent: 'huntOmissions', from: at, to: at, report: writeOmissionHunt(facts, now, write) } };
  });
}
