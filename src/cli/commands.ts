import { flagValue } from './args';
import { CLI_LOCK_WAIT_MS, spec, VERSION, type Command } from './command';
import { acceptDrift } from './driftAccept';
import { driftCommand } from './driftCommand';
import { newSpec } from './newCommand';
import { tasks, trace } from './planCommands';
import { advance, approve, fail, reapprove, recover } from './stageMoves';
import { handoff, task, verdict } from './stateCommands';
import { status } from './statusCommand';
import { stopHook } from './stopHookCommand';
import { syncFeature } from './syncCommand';
import { analyze, converge, validate, verify } from './validatorCommands';
import { worktree } from './worktreeCommand';

/** Every subcommand of `loom-vscode`, with the flags it takes beside the common ones (--cwd, --json, --help, --version, --lang). */
export const COMMANDS: Readonly<Record<string, Command>> = {
  new: { flags: ['--name', '--spec-root', '--type'], run: newSpec },
  status: { flags: ['--spec-dir', '--detail'], run: status, ownCache: true },
  advance: { flags: ['--spec-dir', '--to', '--confirm', '--compression-confirmed', '--reason'], run: advance },
  approve: { flags: ['--spec-dir', '--compression-confirmed', '--reason'], run: approve },
  fail: { flags: ['--spec-dir', '--reason'], run: fail },
  recover: { flags: ['--spec-dir', '--to', '--reason'], run: recover },
  reapprove: { flags: ['--spec-dir', '--stage', '--reason'], run: reapprove },
  task: { flags: ['--spec-dir', '--id', '--status', '--blocker'], run: task },
  verdict: { flags: ['--spec-dir', '--file'], run: verdict },
  handoff: { flags: ['--spec-dir', '--stage', '--task', '--status', '--summary', '--artifacts', '--refresh'], run: handoff },
  tasks: { flags: ['--spec-dir', '--validate'], run: tasks },
  trace: { flags: ['--spec-dir'], run: trace },
  validate: { flags: ['--spec-dir'], run: validate },
  analyze: { flags: ['--spec-dir', '--override', '--reason'], run: analyze },
  converge: { flags: ['--spec-dir'], run: converge },
  verify: { flags: ['--spec-dir', '--run'], run: verify },
  worktree: { flags: ['--spec-dir', '--location'], run: worktree },
  mcp: {
    flags: [],
    // Loaded only here: the MCP SDK and its JSON-schema validator would slow every other command's start.
    run: async ({ repo }) => {
      await (await import('./mcpCommand.js')).runMcpServer(repo.root, VERSION, CLI_LOCK_WAIT_MS);
      return 0;
    },
  },
  sync: { flags: ['--spec-dir', '--remote'], run: ({ repo, args, io, asJson }) => syncFeature(spec(repo, args), io, asJson, flagValue(args, '--remote')) },
  drift: {
    flags: ['--spec-dir', '--accept', '--reason'],
    run: ({ repo, args, io, asJson, env }) =>
      args.flags.has('--accept') || args.flags.has('--reason') ? acceptDrift(repo, args, io, asJson) : driftCommand(repo, args.flags.has('--spec-dir') ? spec(repo, args) : undefined, io, asJson, env),
  },
  'stop-hook': { flags: [], run: ({ repo, io }) => stopHook(repo, io) },
};
