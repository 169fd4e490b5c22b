import { NodeTestRunner, startSession, stopWork } from '../core/port/agentHost';
import type { LoomRepository } from '../core/port/specs';
import type { CliIo } from './io';

/** The hook's JSON on stdin (VS Code, Claude Code and the Copilot CLI send one); nothing when a terminal is attached. */
async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

type HookInput = { stop_hook_active?: unknown; hookEventName?: unknown; hook_event_name?: unknown; session_id?: unknown; sessionId?: unknown };

/**
 * `loom-vscode stop-hook`: the plugin's SessionStart, Stop and SubagentStop hook. At SessionStart it
 * notes the errors already in the specs' files; at a stop it asks Loom whether the work in the
 * repository is done (stopWork.ts: loom's records, the project's tests, no new errors) and answers
 * in both forms agents read: Claude Code's top-level `decision: "block"` with its `reason`, and VS
 * Code's `hookSpecificOutput` with the same; or `continue: true`. A hook input it cannot read counts
 * as a first stop.
 */
export async function stopHook(repo: LoomRepository, io: CliIo): Promise<number> {
  const text = await (io.readInput ?? readStdin)();
  let input: HookInput = {};
  try {
    const parsed: unknown = JSON.parse(text || '{}');
    if (parsed && typeof parsed === 'object') input = parsed as HookInput;
  } catch {
    input = {};
  }
  const event = typeof input.hookEventName === 'string' ? input.hookEventName : typeof input.hook_event_name === 'string' ? input.hook_event_name : 'Stop';
  const sessionId = typeof input.session_id === 'string' ? input.session_id : typeof input.sessionId === 'string' ? input.sessionId : undefined;
  if (event === 'SessionStart') {
    if (sessionId) startSession(repo, sessionId);
    io.out(JSON.stringify({ continue: true }));
    return 0;
  }
  const verdict = await stopWork(repo, { alreadyKept: input.stop_hook_active === true, runner: new NodeTestRunner(), ...(sessionId ? { sessionId } : {}) });
  const reason = verdict.reasons.join('\n\n');
  const message = [...verdict.reasons, ...verdict.notes].join('\n\n');
  if (verdict.keepWorking) io.out(JSON.stringify({ decision: 'block', reason, hookSpecificOutput: { hookEventName: event, decision: 'block', reason } }));
  else io.out(JSON.stringify({ continue: true, ...(message ? { systemMessage: message } : {}) }));
  return 0;
}
