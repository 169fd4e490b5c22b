import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { onlyCompressionMissing } from '../core/port/reports';
import { SpecLockedError, TransitionRefusedError, WorktreeError } from '../core/port/errors';
import { LoomRepository } from '../core/port/specs';
import { LANGUAGES, setDisplayLanguage, t } from '../core/port/messages';
import { cliLanguage, isLanguage } from './language';
import { cliParseCache } from './specCacheDir';
import type { SpecCache } from '../core/port/specCache';
import { NotChanged, printNotChanged } from './answers';
import type { CliIo } from './io';
import { checkFlags, flagValue, parseArgs, UsageError, type ParsedArgs } from './args';
import { formatDiagnostic } from './format';
import { CLI_LOCK_WAIT_MS, json, VERSION } from './command';
import { COMMANDS } from './commands';
import { UnreadableInputError } from './unreadableInput';

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

const COMMON = ['--cwd', '--json', '--help', '--version', '--lang'];

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

/** The subcommand `args` names, on the repository --cwd names (commands.ts holds one function a subcommand). */
async function run(args: ParsedArgs, io: CliIo, env: Readonly<Record<string, string | undefined>>): Promise<number> {
  const command = args.command !== undefined && Object.hasOwn(COMMANDS, args.command) ? COMMANDS[args.command] : undefined;
  if (!command) throw new UsageError(t('cli.usage.unknownCommand', { command: args.command ?? '' }));
  const repo = openRepository(args, command.ownCache ? undefined : cliParseCache(VERSION));
  return command.run({ repo, args, io, asJson: args.flags.has('--json'), env });
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
    if (!Object.hasOwn(COMMANDS, args.command)) throw new UsageError(t('cli.usage.unknownCommand', { command: args.command }));
    checkFlags(args, [...COMMON, ...COMMANDS[args.command].flags]);
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
