import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Handoff, HandoffAsk } from '../core/port/intent';
import { parseReport } from '../core/port/files';
import { HANDOFF_STATUSES, TASK_ID_PATTERN, TASK_STATUSES } from '../core/port/vocabulary';
import { t } from '../core/port/messages';
import type { SpecPipeline } from '../core/port/specs';
import { request } from '../core/port/request';
import { changedOrThrow } from './answers';
import { flagValue, requireFlag, UsageError, type ParsedArgs } from './args';
import { json, spec, type CommandCall } from './command';
/**
 * Headless counterparts of loom's `run --task T --task-status S`, `run --verdict` and `handoff
 * write`, for scripts and agents that drive a spec without VS Code. The writes are intents to the
 * spec's actor (src/core/port), which writes through the state store under the run lock.
 */

/**
 * `task --id T --status S [--blocker B]` as the intent loom's `run --task T --task-status S` is:
 * the flags' own syntax (a task id, one of loom's six statuses) is checked here, as a usage
 * error; whether the spec has the task is the spec's actor's to say.
 */
export function taskAsk(args: ParsedArgs): { task: string; status: string; blocker?: string } {
  const id = requireFlag(args, '--id');
  const status = requireFlag(args, '--status');
  if (!TASK_ID_PATTERN.test(id)) throw new UsageError(t('freshness.task.badId', { id }));
  if (!(TASK_STATUSES as readonly string[]).includes(status)) throw new UsageError(t('freshness.task.unknownStatus', { status, statuses: TASK_STATUSES.join(', ') }));
  return { task: id, status, blocker: flagValue(args, '--blocker') };
}

export type VerdictWord = 'PASS' | 'PARTIAL' | 'FAIL';

/**
 * loom's `run --verdict [--verdict-file F]`: the first verdict line of the report (qa-report.md
 * by default) as PASS, PARTIAL or FAIL, FAIL when there is none; exit 0, 2 and 1.
 */
export function reportVerdict(spec: SpecPipeline, file = 'qa-report.md'): { verdict: VerdictWord; code: number } {
  let text: string;
  try {
    text = readFileSync(join(spec.snapshot.dir, file), 'utf8');
  } catch {
    throw new VerdictFileMissing(t('freshness.verdict.missing', { file, specDir: spec.snapshot.specDir }));
  }
  const report = parseReport(`${spec.snapshot.specDir}/${file}`, text);
  const word = report.verdictText?.toUpperCase();
  const verdict: VerdictWord = word === 'PARTIAL' || word === '部分' ? 'PARTIAL' : report.verdict === 'PASS' ? 'PASS' : 'FAIL';
  return { verdict, code: verdict === 'PASS' ? 0 : verdict === 'PARTIAL' ? 2 : 1 };
}

/** The report `verdict` reads does not exist: loom says so and exits 1. */
export class VerdictFileMissing extends Error {}

/**
 * loom's `handoff write --stage S | --task T [--status] [--summary] [--artifacts a,b]` as the
 * intent: the flags' syntax is checked here (one of --stage and --task, one of loom's four
 * statuses); the rest (a stage of the pipeline, a task of the spec, something to refresh) is
 * the spec's actor's to say. `--refresh` keeps what the handoff says and takes its fingerprints anew.
 */
export function handoffAsk(args: ParsedArgs): HandoffAsk {
  const stage = flagValue(args, '--stage');
  const task = flagValue(args, '--task');
  const status = flagValue(args, '--status');
  if ((stage === undefined) === (task === undefined)) throw new UsageError(t('freshness.handoff.oneOf'));
  if (status !== undefined && !(HANDOFF_STATUSES as readonly string[]).includes(status)) throw new UsageError(t('freshness.handoff.badStatus', { status, statuses: HANDOFF_STATUSES.join(', ') }));
  const artifacts = flagValue(args, '--artifacts')
    ?.split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  return {
    ...(stage !== undefined ? { stage } : { task }),
    ...(status !== undefined ? { status } : {}),
    ...(flagValue(args, '--summary') !== undefined ? { summary: flagValue(args, '--summary') } : {}),
    ...(artifacts?.length ? { artifacts } : {}),
    refresh: args.flags.has('--refresh'),
    writtenBy: 'loom-vscode handoff',
  };
}

export const fingerprintCount = (h: Handoff) => Object.keys(h.basis_fingerprints ?? {}).length + Object.keys(h.artifact_fingerprints ?? {}).length;

/** `task --spec-dir D --id T --status S [--blocker B]`. */
export async function task({ repo, args, io, asJson }: CommandCall): Promise<number> {
  const s = spec(repo, args);
  const ask = taskAsk(args);
  const { task } = changedOrThrow(await request(s, { type: 'setTaskState', ...ask }), s);
  if (asJson) json(io, { spec_dir: s.snapshot.specDir, task });
  else io.out(t('freshness.task.written', { specDir: s.snapshot.specDir, task: task.task_id, status: task.status }));
  return 0;
}

/** `verdict --spec-dir D [--file F]`: the report's verdict, as the exit code too. */
export function verdict({ repo, args, io, asJson }: CommandCall): number {
  const s = spec(repo, args);
  try {
    const { verdict, code } = reportVerdict(s, flagValue(args, '--file'));
    if (asJson) json(io, { spec_dir: s.snapshot.specDir, file: flagValue(args, '--file') ?? 'qa-report.md', verdict });
    else io.out(verdict);
    return code;
  } catch (e) {
    if (!(e instanceof VerdictFileMissing)) throw e;
    io.err(`loom-vscode: ${e.message}`);
    return 1;
  }
}

/** `handoff --spec-dir D --stage S | --task T [...]`. */
export async function handoff({ repo, args, io, asJson }: CommandCall): Promise<number> {
  const s = spec(repo, args);
  const written = changedOrThrow(await request(s, { type: 'writeHandoff', handoff: handoffAsk(args) }), s);
  if (asJson) json(io, { spec_dir: s.snapshot.specDir, path: written.file, handoff: written.handoff });
  else io.out(t(written.refreshed ? 'freshness.handoff.refreshed' : 'freshness.handoff.written', { specDir: s.snapshot.specDir, file: written.file, count: fingerprintCount(written.handoff) }));
  return 0;
}
