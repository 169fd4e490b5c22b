import { stopVerdict } from '../core/port/agentHost';
import type { LoomRepository } from '../core/port/specs';
import type { CliIo } from './io';

/** The hook's JSON on stdin (VS Code, Claude Code and the Copilot CLI send one); nothing when a terminal is attached. */
async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * `loom-vscode stop-hook`: the plugin's Stop and SubagentStop hook. It reads the hook's input,
 * asks Loom whether the work in the repository is done (stopCheck.ts) and answers in both forms
 * agents read: Claude Code's top-level `decision: "block"` with its `reason`, and VS Code's
 * `hookSpecificOutput` with the same; or `continue: true`. A hook input it cannot read counts as a
 * first stop.
 */
export async function stopHook(repo: LoomRepository, io: CliIo): Promise<number> {
  const text = await (io.readInput ?? readStdin)();
  let input: { stop_hook_active?: unknown; hookEventName?: unknown; hook_event_name?: unknown } = {};
  try {
    const parsed: unknown = JSON.parse(text || '{}');
    if (parsed && typeof parsed === 'object') input = parsed as typeof input;
  } catch {
    input = {};
  }
  const event = typeof input.hookEventName === 'string' ? input.hookEventName : typeof input.hook_event_name === 'string' ? input.hook_event_name : 'Stop';
  const verdict = stopVerdict(repo, input.stop_hook_active === true);
  const reason = verdict.reasons.join('\n');
  if (verdict.keepWorking) io.out(JSON.stringify({ decision: 'block', reason, hookSpecificOutput: { hookEventName: event, decision: 'block', reason } }));
  else io.out(JSON.stringify({ continue: true, ...(reason ? { systemMessage: reason } : {}) }));
  return 0;
}
