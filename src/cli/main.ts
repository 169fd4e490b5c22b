import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  type Diagnostic,
  onlyCompressionMissing,
  specProblems,
  ORDERED_OVERLAP,
  planTaskBatches,
  taskDependencyDiagnostics,
  taskOwnershipDiagnostics,
  buildTraceabilityMatrix,
  traceJson,
} from '../core/port/reports';
import { SpecLockedError, TransitionRefusedError, WorktreeError } from '../core/port/errors';
import { PIPELINE_STATE_FILE } from '../core/port/vocabulary';
import { REQUIREMENTS_FILE, TRACEABILITY_FILE } from '../core/port/files';
import { createSpec, LoomRepository, type SpecPipeline, type StatusDetail } from '../core/port/specs';
import { overrideAuthor, overrideFor, verificationArtifacts } from '../core/port/validators';
import { displayLanguage, LANGUAGES, languageOfLocale, setDisplayLanguage, t } from '../core/port/messages';
import { cliLanguage, isLanguage } from './language';
import { cliParseCache, cliStatusCache } from './specCacheDir';
import { scanStatuses, specStatus } from '../core/port/tools';
import type { SpecCache } from '../core/port/specCache';
import { fingerprintCount, handoffAsk, reportVerdict, taskAsk, VerdictFileMissing } from './stateCommands';
import { changedOrThrow, NotChanged, printNotChanged } from './answers';
import type { CliIo } from './io';
import { cliApprover } from './approver';
import { stopHook } from './stopHookCommand';
import { request } from '../core/port/request';
import { checkFlags, flagValue, parseArgs, requireFlag, UsageError, type ParsedArgs } from './args';
import { formatDiagnostic, formatFindings, formatStatuses, formatTasks, formatTrace, statusJson, tasksJson } from './format';
import { specFromArg } from './specDirArg';
import { verifyRun } from './verifyCommand';
import { syncFeature } from './syncCommand';
import { driftCommand } from './driftCommand';
import { acceptDrift } from './driftAccept';

const VERSION = '0.1.0';
const CLI_LOCK_WAIT_MS = 5_000;

/** The usage text, in the display language. */
export const usage = () => t('cli.usage', { version: VERSION });

export type { CliIo } from './io';

/** `text` and a line break after it: written apart, as `status --json`'s megabytes would be copied to add one. */
const writeLine = (stream: NodeJS.WriteStream, text: string) => {
  stream.write(text);
  if (!text.endsWith('\n')) stream.write('\n');
};

const defaultIo: CliIo = {
  out: (t) => writeLine(process.stdout, t),
  err: (t) => writeLine(process.stderr, t),
  terminal: process.stdin.isTTY === true,
};

/** A file the command needs exists but cannot be read: answering anyway would be silently wrong. */
class UnreadableInputError extends Error {
  constructor(
    message: string,
    readonly diagnostics: readonly Diagnostic[],
  ) {
    super(message);
  }
}

const COMMON = ['--cwd', '--json', '--help', '--version', '--lang'];
const FLAGS: Readonly<Record<string, readonly string[]>> = {
  new: ['--name', '--spec-root', '--type'],
  status: ['--spec-dir', '--detail'],
  advance: ['--spec-dir', '--to', '--confirm', '--compression-confirmed', '--reason'],
  approve: ['--spec-dir', '--compression-confirmed', '--reason'],
  fail: ['--spec-dir', '--reason'],
  recover: ['--spec-dir', '--to', '--reason'],
  reapprove: ['--spec-dir', '--stage', '--reason'],
  task: ['--spec-dir', '--id', '--status', '--blocker'],
  verdict: ['--spec-dir', '--file'],
  handoff: ['--spec-dir', '--stage', '--task', '--status', '--summary', '--artifacts', '--refresh'],
  tasks: ['--spec-dir', '--validate'],
  trace: ['--spec-dir'],
  validate: ['--spec-dir'],
  analyze: ['--spec-dir', '--override', '--reason'],
  converge: ['--spec-dir'],
  verify: ['--spec-dir', '--run'],
  worktree: ['--spec-dir', '--location'],
  mcp: [],
  sync: ['--spec-dir', '--remote'],
  drift: ['--spec-dir', '--accept', '--reason'],
  'stop-hook': [],
};

/** The repository named by --cwd. Nothing is read yet: one-shot commands read only what they need. */
function openRepository(args: ParsedArgs, parses: SpecCache | undefined): LoomRepository {
  const root = resolve(flagValue(args, '--cwd') ?? process.cwd());
  let isDir: boolean;
  try {
    isDir = statSync(root).isDirectory();
  } catch {
    throw new UsageError(t('cli.usage.cwdMissing', { path: root }));
  }
  if (!isDir) throw new UsageError(t('cli.usage.cwdNotDirectory', { path: root }));
  // loom's own writers hold the run lock for milliseconds: wait for them rather than refuse.
  // Unchanged files are not parsed again from one run to the next (the per-spec cache).
  return new LoomRepository(root, { pipeline: { lockWaitMs: CLI_LOCK_WAIT_MS }, cache: parses });
}

function spec(repo: LoomRepository, args: ParsedArgs): SpecPipeline {
  return specFromArg(repo, requireFlag(args, '--spec-dir'));
}

/** The keys of a task file that batching reads. */
const BATCH_KEYS = ['owns', 'reads', 'depends_on'];

/**
 * A task whose frontmatter does not parse, or whose owns/reads/depends_on the schema rejected, is
 * planned as if it had none of them: the batches would be wrong. A problem on another key
 * (`complexity: huge`) does not matter here.
 */
function readableTasks(s: SpecPipeline): void {
  const broken = [...s.snapshot.tasks.values()].flatMap((t) => {
    const otherKeyLines = new Set([...t.keyLines].filter(([k]) => !BATCH_KEYS.includes(k)).map(([, line]) => line));
    return s.diagnostics.filter((d) => d.file === t.file && d.severity === 'error' && (d.code === 'frontmatter-syntax' || (d.code === 'schema' && !otherKeyLines.has(d.line))));
  });
  if (broken.length) throw new UnreadableInputError(t('cli.input.tasksUnreadable', { specDir: s.snapshot.specDir }), broken);
}

function readableLedgers(s: SpecPipeline): void {
  const files: string[] = [];
  if (s.snapshot.requirementsCondition === 'invalid') files.push(`${s.snapshot.specDir}/${REQUIREMENTS_FILE}`);
  if (s.snapshot.traceabilityCondition === 'invalid') files.push(`${s.snapshot.specDir}/${TRACEABILITY_FILE}`);
  if (files.length) {
    throw new UnreadableInputError(
      t('input.ledgersUnreadable', { specDir: s.snapshot.specDir, files: files.join(', ') }),
      s.diagnostics.filter((d) => files.includes(d.file)),
    );
  }
}

const json = (io: CliIo, value: unknown) => io.out(JSON.stringify(value, null, 2));

/** `--detail summary` (the default) or `full`. */
function statusDetail(args: ParsedArgs): StatusDetail {
  const value = flagValue(args, '--detail') ?? 'summary';
  if (value !== 'summary' && value !== 'full') throw new UsageError(t('cli.usage.badDetail', { value }));
  return value;
}

async function run(args: ParsedArgs, io: CliIo, env: Readonly<Record<string, string | undefined>>): Promise<number> {
  const asJson = args.flags.has('--json');
  // `status` keeps whole statuses (cliStatusCache), not each file's parse.
  const repo = openRepository(args, args.command === 'status' ? undefined : cliParseCache(VERSION));
  switch (args.command) {
    case 'new': {
      const name = requireFlag(args, '--name');
      const specRoot = flagValue(args, '--spec-root') ?? repo.specRoots[0];
      if (!repo.specRoots.includes(specRoot)) throw new UsageError(t('cli.usage.specRoot', { roots: repo.specRoots.join(', ') }));
      // A qa/ spec follows the qa pipeline, as a spec found there without a state file does.
      const pipelineType = flagValue(args, '--type') ?? (specRoot === 'qa' ? 'qa' : repo.defaultPipelineType);
      // The spec.md template follows the terminal's locale (LANG=zh_CN.UTF-8 gets the Chinese one).
      const language = languageOfLocale(process.env.LC_ALL || process.env.LANG);
      const created = createSpec(repo.root, name, new Date(), { specRoot, pipelineType, stage: repo.definition(pipelineType).initial, definition: repo.definition(pipelineType), language });
      if (asJson) json(io, { spec_dir: created.specDir, pipeline_type: pipelineType, stage: repo.definition(pipelineType).initial });
      else io.out(t('cli.new.started', { specDir: created.specDir, stage: repo.definition(pipelineType).initial, pipeline: pipelineType }));
      return 0;
    }
    case 'status': {
      const detail = statusDetail(args);
      const every = !args.flags.has('--spec-dir');
      const cache = every ? cliStatusCache(VERSION, repo.root, displayLanguage(), detail) : undefined;
      const statuses = every ? scanStatuses(repo, cache?.statuses, detail) : [specStatus(repo, spec(repo, args).snapshot.dir, detail)];
      if (asJson) json(io, every ? statuses.map(statusJson) : statusJson(statuses[0]));
      else io.out(statuses.length ? formatStatuses(statuses) : t('cli.status.noSpecs', { root: repo.root, roots: repo.specRoots.join(', ') }));
      // Written once the answer is out (one file, and only when a status changed).
      cache?.save();
      // Every spec is still reported, but a stage that could not be read is unreadable input (exit 2), as the README promises.
      const unreadable = statuses.filter((s) => s.stage_source === 'unknown');
      for (const s of unreadable) {
        const workflow = s.diagnostics.find((d) => d.code === 'workflow-unreadable');
        if (workflow) io.err(`loom-vscode: ${workflow.message}`);
        else io.err(`loom-vscode: ${t('cli.input.stageUnknown', { file: `${s.spec_dir}/${PIPELINE_STATE_FILE}`, specDir: s.spec_dir })}`);
      }
      return unreadable.length ? 2 : 0;
    }
    case 'advance': {
      const s = spec(repo, args);
      const moved = changedOrThrow(
        await request(
          s,
          { type: 'advance', to: flagValue(args, '--to'), compressionConfirmed: args.flags.has('--compression-confirmed'), reason: flagValue(args, '--reason') },
          // The person at the terminal gave their word up front.
          args.flags.has('--confirm') ? { confirm: true, approver: cliApprover(io) } : {},
        ),
        s,
      );
      if (asJson) json(io, { spec_dir: s.snapshot.specDir, from: moved.from, to: moved.to });
      else io.out(t('cli.moved', { specDir: s.snapshot.specDir, from: moved.from ?? '', to: moved.to ?? '' }));
      return 0;
    }
    case 'approve': {
      // loom's `run --approve`: the person at the terminal approving is their word on the gate.
      const s = spec(repo, args);
      const approved = changedOrThrow(
        await request(s, { type: 'approve', compressionConfirmed: args.flags.has('--compression-confirmed'), reason: flagValue(args, '--reason') }, { confirm: true, approver: cliApprover(io) }),
        s,
      );
      if (asJson) json(io, { spec_dir: s.snapshot.specDir, from: approved.from, to: approved.to });
      else io.out(t('cli.moved', { specDir: s.snapshot.specDir, from: approved.from ?? '', to: approved.to ?? '' }));
      return 0;
    }
    case 'fail': {
      const s = spec(repo, args);
      const reason = requireFlag(args, '--reason');
      if (!reason.trim()) throw new UsageError(t('cli.usage.failNeedsReason'));
      const failed = changedOrThrow(await request(s, { type: 'fail', reason }), s);
      if (asJson) json(io, { spec_dir: s.snapshot.specDir, from: failed.from, to: failed.to });
      else io.out(t('cli.failed', { specDir: s.snapshot.specDir, from: failed.from ?? '', reason }));
      return 0;
    }
    case 'recover': {
      const s = spec(repo, args);
      const moved = changedOrThrow(await request(s, { type: 'recover', to: requireFlag(args, '--to'), reason: flagValue(args, '--reason') }), s);
      if (asJson) json(io, { spec_dir: s.snapshot.specDir, from: moved.from, to: moved.to });
      else io.out(t('cli.moved', { specDir: s.snapshot.specDir, from: moved.from ?? '', to: moved.to ?? '' }));
      return 0;
    }
    case 'reapprove': {
      const s = spec(repo, args);
      const renewed = changedOrThrow(await request(s, { type: 'reapprove', stage: flagValue(args, '--stage'), reason: flagValue(args, '--reason') }), s);
      const { stage, changed } = renewed.reapproved;
      const current = renewed.state?.current_stage ?? renewed.to ?? '';
      if (asJson) json(io, { spec_dir: s.snapshot.specDir, stage, changed, current_stage: current });
      else io.out(t('cli.reapproved', { specDir: s.snapshot.specDir, stage, changed: changed.join(', '), current }));
      return 0;
    }
    case 'task': {
      const s = spec(repo, args);
      const ask = taskAsk(args);
      const { task } = changedOrThrow(await request(s, { type: 'setTaskState', ...ask }), s);
      if (asJson) json(io, { spec_dir: s.snapshot.specDir, task });
      else io.out(t('freshness.task.written', { specDir: s.snapshot.specDir, task: task.task_id, status: task.status }));
      return 0;
    }
    case 'verdict': {
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
    case 'handoff': {
      const s = spec(repo, args);
      const written = changedOrThrow(await request(s, { type: 'writeHandoff', handoff: handoffAsk(args) }), s);
      if (asJson) json(io, { spec_dir: s.snapshot.specDir, path: written.file, handoff: written.handoff });
      else io.out(t(written.refreshed ? 'freshness.handoff.refreshed' : 'freshness.handoff.written', { specDir: s.snapshot.specDir, file: written.file, count: fingerprintCount(written.handoff) }));
      return 0;
    }
    case 'tasks': {
      const s = spec(repo, args);
      readableTasks(s);
      const tasks = [...s.snapshot.tasks.values()];
      const plan = planTaskBatches(tasks);
      if (asJson) json(io, tasksJson(plan));
      else io.out(formatTasks(plan));
      if (!args.flags.has('--validate')) return 0;
      // What `loom tasks --validate` rejects: a task without owns, conflicts, and plans that cannot finish.
      const problems = [...taskOwnershipDiagnostics(tasks), ...taskDependencyDiagnostics(tasks, plan)];
      for (const d of problems) io.err(formatDiagnostic(d));
      // Silence after --validate read like nothing had been checked: say what passed (not in --json, whose stdout is one document).
      if (problems.length === 0 && !asJson) io.out(t('cli.tasks.valid', { specDir: s.snapshot.specDir, count: tasks.length }));
      // loom's tasks --validate exits 1 on every overlapping pair, depends_on or not.
      return problems.some((d) => d.severity === 'error' || d.code === ORDERED_OVERLAP) ? 1 : 0;
    }
    case 'trace': {
      const s = spec(repo, args);
      readableLedgers(s);
      const matrix = buildTraceabilityMatrix(s.snapshot);
      if (asJson) json(io, traceJson(matrix));
      else io.out(formatTrace(matrix));
      return 0;
    }
    case 'validate': {
      // The same list as the Problems panel: file diagnostics, stale facts, the stage's findings.
      const problemsOf = (s: SpecPipeline) => specProblems(s).problems;
      const perSpec = args.flags.has('--spec-dir') ? [problemsOf(spec(repo, args))] : repo.scan(problemsOf);
      const diagnostics: Diagnostic[] = [...repo.workflowProblems, ...perSpec.flat()];
      if (asJson) json(io, { diagnostics });
      else io.out(diagnostics.length ? diagnostics.map(formatDiagnostic).join('\n') : t('cli.validate.clean'));
      return diagnostics.some((d) => d.severity === 'error') ? 1 : 0;
    }
    case 'analyze': {
      const s = spec(repo, args);
      const findingId = flagValue(args, '--override');
      const reason = flagValue(args, '--reason');
      if (findingId === undefined && reason !== undefined) throw new UsageError(t('cli.usage.reasonOnlyWithOverride'));
      if (findingId !== undefined && !reason?.trim()) throw new UsageError(t('cli.usage.overrideNeedsReason'));
      const override = findingId ? { findingId, reason: reason!, by: overrideAuthor('loom-vscode analyze --override') } : undefined;
      const { report } = changedOrThrow(await request(s, { type: 'analyzeArtifacts', ...(override ? { override } : {}) }), s);
      if (asJson) json(io, report);
      else {
        const overridden = new Map(report.findings.flatMap((f) => (overrideFor(report, f) ? [[f.id, overrideFor(report, f)!] as const] : [])));
        const figures = Object.entries(report.coverage)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ');
        const still = overridden.size ? `\n${t('cli.analyze.overridesStillBlock', { count: overridden.size })}` : '';
        io.out(
          `${t('cli.analyze.summary', { specDir: s.snapshot.specDir, status: report.status, blockers: report.blocker_count })}\n  ${figures}\n${formatFindings(s.snapshot.specDir, report.findings, overridden)}${still}`,
        );
      }
      return report.status === 'pass' ? 0 : 1;
    }
    case 'converge': {
      const s = spec(repo, args);
      const { outcome } = changedOrThrow(await request(s, { type: 'converge' }), s);
      const { report } = outcome;
      if (asJson) json(io, report);
      else {
        const lines = [
          t('cli.converge.summary', { specDir: s.snapshot.specDir, round: report.round, status: report.status, coverage: report.coverage.behavior_coverage, blockers: report.blocker_count }),
          formatFindings(s.snapshot.specDir, report.findings),
        ];
        for (const a of outcome.appended) lines.push(t('cli.converge.appended', { task: a.id, behaviors: a.behaviors.join(', ') }));
        if (outcome.escalate) lines.push(t('cli.converge.escalate', { round: report.round }));
        io.out(lines.join('\n'));
      }
      return report.status === 'converged' ? 0 : 1;
    }
    case 'verify': {
      const s = spec(repo, args);
      if (args.flags.has('--run')) return verifyRun(s, io, asJson);
      const result = verificationArtifacts(s.snapshot);
      if (asJson) json(io, { spec_dir: s.snapshot.specDir, validator: result.name, passed: result.passed, findings: result.findings ?? [] });
      else
        io.out(
          `${t(result.passed ? 'cli.verify.passed' : 'cli.verify.failed', { specDir: s.snapshot.specDir, validator: result.name })}\n${formatFindings(s.snapshot.specDir, result.findings ?? [])}`,
        );
      return result.passed ? 0 : 1;
    }
    case 'worktree': {
      const s = spec(repo, args);
      const made = changedOrThrow(await request(s, { type: 'createWorktree', location: flagValue(args, '--location') ?? '' }), s);
      const { worktree } = made;
      if (asJson) json(io, { spec_dir: s.snapshot.specDir, ...worktree });
      else io.out(t(worktree.created ? 'cli.worktree.created' : 'cli.worktree.reused', { specDir: s.snapshot.specDir, branch: worktree.branch, path: worktree.path }));
      return 0;
    }
    case 'sync':
      return syncFeature(spec(repo, args), io, asJson, flagValue(args, '--remote'));
    case 'drift':
      if (args.flags.has('--accept') || args.flags.has('--reason')) return acceptDrift(repo, args, io, asJson);
      return driftCommand(repo, args.flags.has('--spec-dir') ? spec(repo, args) : undefined, io, asJson, env);
    case 'mcp':
      // Loaded only here: the MCP SDK and its JSON-schema validator would slow every other command's start.
      await (await import('./mcpCommand.js')).runMcpServer(repo.root, VERSION, CLI_LOCK_WAIT_MS);
      return 0;
    case 'stop-hook':
      return stopHook(repo, io);
    default:
      throw new UsageError(t('cli.usage.unknownCommand', { command: args.command ?? '' }));
  }
}

/** `loom-vscode validate --json | head` closes the pipe early: that is the reader's choice, not a crash. */
function ignoreClosedPipes(): void {
  for (const stream of [process.stdout, process.stderr]) {
    if (stream.listenerCount('error') > 0) continue;
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') throw e;
    });
  }
}

/** Runs one CLI invocation; returns the exit code. Never calls process.exit, so tests can call it. */
export async function main(argv: readonly string[], io: CliIo = defaultIo, env: Readonly<Record<string, string | undefined>> = process.env): Promise<number> {
  if (io === defaultIo) ignoreClosedPipes();
  setDisplayLanguage(cliLanguage(argv, env));
  const hint = t('cli.hint');
  let args: ParsedArgs;
  try {
    args = parseArgs(argv);
    if (args.flags.has('--version')) {
      io.out(VERSION);
      return 0;
    }
    if (args.flags.has('--help')) {
      io.out(usage());
      return 0;
    }
    if (!args.command) {
      io.err(usage());
      return 2;
    }
    if (!Object.hasOwn(FLAGS, args.command)) throw new UsageError(t('cli.usage.unknownCommand', { command: args.command }));
    checkFlags(args, [...COMMON, ...FLAGS[args.command]]);
    const lang = flagValue(args, '--lang');
    if (lang !== undefined && !isLanguage(lang)) throw new UsageError(t('cli.usage.badLanguage', { value: lang, languages: LANGUAGES.join(', ') }));
  } catch (e) {
    io.err(`loom-vscode: ${(e as Error).message}\n${hint}`);
    return 2;
  }

  const asJson = args.flags.has('--json');
  try {
    return await run(args, io, env);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`loom-vscode: ${e.message}\n${hint}`);
      return 2;
    }
    if (e instanceof UnreadableInputError) {
      io.err(`loom-vscode: ${e.message}${e.diagnostics.map((d) => `\n  ${formatDiagnostic(d)}`).join('')}`);
      return 2;
    }
    if (e instanceof NotChanged) return printNotChanged(e, io, asJson);
    if (e instanceof TransitionRefusedError) {
      // `codes` are stable English words for scripts; `error` and `reasons` are in the display language.
      const codes = e.details.codes ?? [];
      // Only the caller's word on compression is missing: loom 3's compression_required refusal.
      const compressionOnly = onlyCompressionMissing(e.details, e.reasons);
      if (asJson)
        json(io, {
          error: e.message,
          code: compressionOnly ? 'compression-required' : 'transition-refused',
          codes,
          reasons: e.reasons,
          ...(compressionOnly ? { compression_required: true, required_action: 'compress_closed_stage_context' } : {}),
        });
      io.err(`loom-vscode: ${e.message}${e.reasons.map((r) => `\n  - ${r}`).join('')}`);
      return 1;
    }
    if (e instanceof SpecLockedError || e instanceof WorktreeError) {
      io.err(`loom-vscode: ${e.message}`);
      return 1;
    }
    // CorruptStateError and the rest: an input the core could not use. Anything else (a file that
    // cannot be written, a bug) is reported too, never thrown at the launcher.
    io.err(`loom-vscode: ${e instanceof Error ? e.message : String(e)}`);
    return 2;
  }
}
