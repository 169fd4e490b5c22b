/** A small, strict argument parser: unknown flags are usage errors (exit 2), never ignored. */
export class UsageError extends Error {}

export interface ParsedArgs {
  command?: string;
  flags: Map<string, string | true>;
}

const VALUE_FLAGS = new Set(['--cwd', '--spec-dir', '--to', '--reason']);
const BOOLEAN_FLAGS = new Set(['--json', '--confirm', '--validate', '--help', '-h', '--version']);

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const flags = new Map<string, string | true>();
  let command: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    if (VALUE_FLAGS.has(name)) {
      const value = eq > 0 && arg.startsWith('--') ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined || value === '') throw new UsageError(`${name} needs a value`);
      flags.set(name, value);
    } else if (BOOLEAN_FLAGS.has(arg)) {
      flags.set(arg === '-h' ? '--help' : arg, true);
    } else if (arg.startsWith('-')) {
      throw new UsageError(`unknown option ${arg}`);
    } else if (command === undefined) {
      command = arg;
    } else {
      throw new UsageError(`unexpected argument ${arg}`);
    }
  }
  return { command, flags };
}

export const flagValue = (args: ParsedArgs, name: string): string | undefined => {
  const v = args.flags.get(name);
  return typeof v === 'string' ? v : undefined;
};

export function requireFlag(args: ParsedArgs, name: string): string {
  const v = flagValue(args, name);
  if (v === undefined) throw new UsageError(`${args.command} needs ${name}`);
  return v;
}
