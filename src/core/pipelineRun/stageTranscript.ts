import { join } from 'node:path';
import { writeFileAtomic } from '../fs/atomicWrite';
import { formatCredits } from '../credits/pricing';
import { t } from '../messages';
import { withRunLock, type SpecLocation } from '../store/runLock';

/**
 * Each stage's transcript of a pipeline run, kept on disk beside the spec's files. Loom has no
 * place for transcripts (it keeps logs that reports cite under evidence/, and evidence/ may be a
 * declared, fingerprinted artifact), so they go to `transcripts/`, a folder no loom step declares,
 * fingerprints or scans: `transcripts/run-<stage>.md`, the last run of that stage, rewritten whole.
 */
export const TRANSCRIPTS_DIR = 'transcripts';

/** What a run did at one stage, as pipelineRun.ts's StageRecord holds it. */
export interface TranscribedStage {
  stage: string;
  work: string;
  startedAt: string;
  ms: number;
  rounds: number;
  tokens: number;
  credits?: number;
  wrote: readonly string[];
  transcript: readonly string[];
}

/** The spec-relative file of a stage's transcript. */
export const stageTranscriptFile = (stage: string) => `${TRANSCRIPTS_DIR}/run-${stage.replace(/[^A-Za-z0-9_.-]/g, '_')}.md`;

/** The transcript as Markdown: what the stage did, its time, rounds, estimated tokens and what it wrote, then each line. */
export function renderStageTranscript(record: TranscribedStage, mode: string, specDir: string): string {
  const facts = [
    [t('run.transcript.spec'), specDir],
    [t('run.transcript.mode'), mode],
    [t('run.transcript.work'), record.work],
    [t('run.transcript.started'), record.startedAt],
    [t('run.transcript.time'), `${(record.ms / 1000).toFixed(1)} s`],
    [t('run.transcript.rounds'), String(record.rounds)],
    [t('run.transcript.tokens'), String(record.tokens)],
    ...(record.credits !== undefined ? [[t('run.transcript.credits'), formatCredits(record.credits)]] : []),
    [t('run.transcript.wrote'), record.wrote.join(', ') || '-'],
  ];
  return [
    `# ${t('run.transcript.title', { stage: record.stage })}`,
    '',
    ...facts.map(([k, v]) => `- ${k}: ${v}`),
    '',
    `## ${t('run.transcript.lines')}`,
    '',
    // Each line of the run, as the log and the dashboard show it; a model's reply may span lines.
    ...record.transcript.map((l) => `- ${l.replace(/\r?\n/g, '\n  ')}`),
    '',
  ].join('\n');
}

/** Writes the stage's transcript atomically under the spec's run lock; returns its spec-relative path. */
export function writeStageTranscript(spec: SpecLocation, record: TranscribedStage, mode: string): string {
  const file = stageTranscriptFile(record.stage);
  withRunLock(spec, () => writeFileAtomic(join(spec.dir, file), renderStageTranscript(record, mode, spec.specDir)));
  return file;
}
