import type { LoomRepository, SpecPipeline } from '../core/port/specs';
import { requireFlag, type ParsedArgs } from './args';
import type { CliIo } from './io';
import { specFromArg } from './specDirArg';

/** The CLI's version, as `--version` and the usage text say it; the caches are keyed by it. */
export const VERSION = '0.1.0';

/** loom's own writers hold the run lock for milliseconds: the CLI waits this long for them rather than refuse. */
export const CLI_LOCK_WAIT_MS = 5_000;

/** What one subcommand works with: the repository named by --cwd, its flags, where it writes, and the environment. */
export interface CommandCall {
  repo: LoomRepository;
  args: ParsedArgs;
  io: CliIo;
  asJson: boolean;
  env: Readonly<Record<string, string | undefined>>;
}

/** One subcommand: the flags it takes beside the common ones, and what it does; it returns the exit code. */
export interface Command {
  flags: readonly string[];
  run(call: CommandCall): Promise<number> | number;
  /** `status` keeps whole statuses (cliStatusCache), not each file's parse. */
  ownCache?: boolean;
}

/** The spec --spec-dir names (a usage error without it). */
export function spec(repo: LoomRepository, args: ParsedArgs): SpecPipeline {
  return specFromArg(repo, requireFlag(args, '--spec-dir'));
}

/** One JSON document on stdout. */
export const json = (io: CliIo, value: unknown) => io.out(JSON.stringify(value, null, 2));
