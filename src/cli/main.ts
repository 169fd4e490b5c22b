import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Diagnostic } from '../core/diagnostics/diagnostic';
import { LoomError, TransitionRefusedError } from '../core/errors';
import { LoomRepository } from '../core/repository/loomRepository';
import type { SpecPipeline } from '../core/repository/specPipeline';
import { specDiagnostics } from '../core/repository/specDiagnostics';
import { planTaskBatches } from '../core/tasks/taskBatches';
import { buildTraceabilityMatrix } from '../core/trace/traceabilityMatrix';
import { flagValue, parseArgs, requireFlag, UsageError, type ParsedArgs } from './args';
import { formatDiagnostic, formatStatus } from './format';

const VERSION = '0.1.0';

export const USAGE = `loom-vscode ${VERSION} — loom's pipeline, headless

Usage: loom-vscode <command> [--cwd <repo>] [--json]

Commands:
  status   [--spec-dir D]                 where every spec stands and what blocks its next step
  advance  --spec-dir D [--to S] [--confirm] [--reason R]
                                          move to the next stage when its preconditions hold
  fail     --spec-dir D --reason R        mark the spec failed, recording the reason
  recover  --spec-dir D --to S [--reason R]  leave failed for a stage the pipeline allows
  tasks    --spec-dir D [--validate]      parallel batches, owns conflicts, cycles
  trace    --spec-dir D                   the traceability matrix
  validate [--spec-dir D]                 every diagnostic of loom's files

Exit codes: 0 success, 1 a check failed, 2 bad usage or unreadable input.`;

interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
}

const defaultIo: Io = {
  out: (t) => process.stdout.write(t.endsWith('\n') ? t : `${t}\n`),
  err: (t) => process.stderr.write(t.endsWith('\n') ? t : `${t}\n`),
};

/** The repository named by --cwd. Nothing is read yet: one-shot commands read only what they need. */
function openRepository(args: ParsedArgs): LoomRepository {
  const root = resolve(flagValue(args, '--cwd') ?? process.cwd());
  if (!existsSync(root)) throw new UsageError(`--cwd ${root} does not exist`);
  return new LoomRepository(root);
}

function spec(repo: LoomRepository, args: ParsedArgs): SpecPipeline {
  const dir = requireFlag(args, '--spec-dir');
  const found = repo.get(dir);
  if (!found) throw new UsageError(`${dir} is not a spec directory of ${repo.root} (expected specs/<name> or qa/<name>)`);
  return found;
}

const json = (io: Io, value: unknown) => io.out(JSON.stringify(value, null, 2));

/** Runs one CLI invocation; returns the exit code. Never calls process.exit, so tests can call it. */
export async function main(argv: readonly string[], io: Io = defaultIo): Promise<number> {
  let args: ParsedArgs;
  try {
    args = parseArgs(argv);
  } catch (e) {
    io.err(`loom-vscode: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (args.flags.has('--version')) {
    io.out(VERSION);
    return 0;
  }
  if (args.flags.has('--help') || !args.command) {
    (args.command || args.flags.has('--help') ? io.out : io.err)(USAGE);
    return args.flags.has('--help') ? 0 : 2;
  }
  const asJson = args.flags.has('--json');
  try {
    const repo = openRepository(args);
    switch (args.command) {
      case 'status': {
        const statuses = args.flags.has('--spec-dir') ? [spec(repo, args).status()] : repo.scan((s) => s.status());
        if (asJson) json(io, args.flags.has('--spec-dir') ? statuses[0] : statuses);
        else io.out(statuses.length ? statuses.map(formatStatus).join('\n\n') : `No spec directories under ${repo.root} (${repo.specRoots.join(', ')}).`);
        return 0;
      }
      case 'advance': {
        const s = spec(repo, args);
        const result = s.advance({ to: flagValue(args, '--to'), confirm: args.flags.has('--confirm'), reason: flagValue(args, '--reason') });
        if (asJson) json(io, { spec_dir: s.snapshot.specDir, from: result.from, to: result.to });
        else io.out(`${s.snapshot.specDir}: ${result.from} → ${result.to}`);
        return 0;
      }
      case 'fail': {
        const s = spec(repo, args);
        const result = s.fail(requireFlag(args, '--reason'));
        if (asJson) json(io, { spec_dir: s.snapshot.specDir, from: result.from, to: result.to });
        else io.out(`${s.snapshot.specDir}: ${result.from} → failed (${flagValue(args, '--reason')})`);
        return 0;
      }
      case 'recover': {
        const s = spec(repo, args);
        const result = s.recover(requireFlag(args, '--to'), { reason: flagValue(args, '--reason') });
        if (asJson) json(io, { spec_dir: s.snapshot.specDir, from: result.from, to: result.to });
        else io.out(`${s.snapshot.specDir}: failed → ${result.to}`);
        return 0;
      }
      case 'tasks': {
        const s = spec(repo, args);
        const plan = planTaskBatches(s.snapshot.tasks.values());
        const problems = args.flags.has('--validate') ? specDiagnostics(s).filter((d) => d.code?.startsWith('task-')) : [];
        if (asJson) json(io, args.flags.has('--validate') ? { ...plan, problems } : plan);
        else {
          io.out(plan.batches.map((b, i) => `Batch ${i + 1} (${b.type}): ${b.tasks.join(', ')}`).join('\n') || 'No tasks.');
          if (plan.cycle) io.out(`Dependency cycle: ${plan.cycle.join(' → ')}`);
          for (const u of plan.unknown_dependencies) io.out(`${u.task} depends on unknown task ${u.depends_on}`);
          for (const c of plan.conflicts) io.out(`Conflict: ${c.a} and ${c.b} both touch ${c.paths.join(', ')}`);
          for (const d of problems) io.err(formatDiagnostic(d));
        }
        if (args.flags.has('--validate')) return problems.some((d) => d.severity === 'error') || plan.cycle || plan.unknown_dependencies.length ? 1 : 0;
        return 0;
      }
      case 'trace': {
        const s = spec(repo, args);
        const matrix = buildTraceabilityMatrix(s.snapshot);
        if (asJson) json(io, { rows: matrix.rows, requirements: matrix.requirements, orphans: matrix.orphans, summary: matrix.summary });
        else {
          for (const r of matrix.rows) io.out(`${r.closed ? '✅' : '❌'} ${r.behavior} [${r.category}] tasks: ${r.tasks.join(', ') || '-'}; tests: ${r.tests.filter((t) => t.exists).length}/${r.tests.length}; evidence: ${r.evidence.filter((e) => e.exists).length}/${r.evidence.length}`);
          io.out(`${matrix.summary.closed}/${matrix.summary.behaviors} behaviors closed`);
        }
        return 0;
      }
      case 'validate': {
        const perSpec = args.flags.has('--spec-dir') ? [specDiagnostics(spec(repo, args))] : repo.scan(specDiagnostics);
        const diagnostics: Diagnostic[] = [...repo.workflowProblems, ...perSpec.flat()];
        if (asJson) json(io, { diagnostics });
        else io.out(diagnostics.length ? diagnostics.map(formatDiagnostic).join('\n') : 'No problems found.');
        return diagnostics.some((d) => d.severity === 'error') ? 1 : 0;
      }
      default:
        throw new UsageError(`unknown command ${args.command}`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`loom-vscode: ${e.message}`);
      return 2;
    }
    if (e instanceof TransitionRefusedError) {
      if (asJson) json(io, { error: e.message, reasons: e.reasons });
      io.err(`loom-vscode: ${e.message}${e.reasons.map((r) => `\n  - ${r}`).join('')}`);
      return 1;
    }
    if (e instanceof LoomError) {
      io.err(`loom-vscode: ${e.message}`);
      return e.constructor.name === 'SpecLockedError' ? 1 : 2;
    }
    io.err(`loom-vscode: ${(e as Error).message ?? String(e)}`);
    return 2;
  }
}
