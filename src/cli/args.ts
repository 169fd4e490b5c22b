import { t } from '../core/port/messages';

/** A small, strict argument parser: unknown flags are usage errors (exit 2), never ignored. */
export class UsageError extends Error {}

export interface ParsedArgs {
  command?: string;
  flags: Map<string, string | true>;
}

const VALUE_FLAGS = new Set([
  '--cwd',
  '--spec-dir',
  '--to',
  '--reason',
  '--override',
  '--name',
  '--spec-root',
  '--type',
  '--location',
  '--remote',
  '--stage',
  '--lang',
  '--id',
  '--status',
  '--blocker',
  '--file',
  '--task',
  '--summary',
  '--artifacts',
  '--detail',
]);
const BOOLEAN_FLAGS = new Set(['--json', '--confirm', '--compression-confirmed', '--validate', '--help', '-h', '--version', '--refresh', '--run', '--accept']);

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const flags = new Map<string, string | true>();
  let command: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.indexOf('=');
    const inline = arg.startsWith('--') && eq > 0;
    const name = inline ? arg.slice(0, eq) : arg;
    if (VALUE_FLAGS.has(name)) {
      const value = inline ? arg.slice(eq + 1) : argv[++i];
      // `--spec-dir --json` is a forgotten value, not a directory called "--json".
      if (value === undefined || value === '' || (!inline && /^--?[A-Za-z]/.test(value))) throw new UsageError(t('cli.usage.needsValue', { flag: name }));
      flags.set(name, value);
    } else if (BOOLEAN_FLAGS.has(name)) {
      if (inline) throw new UsageError(t('cli.usage.takesNoValue', { flag: name }));
      flags.set(arg === '-h' ? '--help' : arg, true);
    } else if (arg.startsWith('-')) {
      throw new UsageError(t('cli.usage.unknownOption', { flag: name }));
    } else if (command === undefined) {
      command = arg;
    } else {
      throw new UsageError(t('cli.usage.unexpectedArgument', { arg }));
    }
  }
  return { command, flags };
}

/** Rejects flags the command does not take (`status --confirm`), instead of silently ignoring them. */
export function checkFlags(args: ParsedArgs, allowed: readonly string[]): void {
  for (const flag of args.flags.keys()) {
    if (!allowed.includes(flag)) throw new UsageError(t('cli.usage.flagNotTaken', { command: args.command ?? '', flag }));
  }
}

export const flagValue = (args: ParsedArgs, name: string): string | undefined => {
  const v = args.flags.get(name);
  return typeof v === 'string' ? v : undefined;
};

export function requireFlag(args: ParsedArgs, name: string): string {
  const v = flagValue(args, name);
  if (v === undefined) throw new UsageError(t('cli.usage.needsFlag', { command: args.command ?? '', flag: name }));
  return v;
}
