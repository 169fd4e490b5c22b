import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { ChatMessage, ChatModel, ChatResponsePart } from '../../../src/core/executing/dispatch/chatModel';
import type { ModelSelector, UserPrompts } from '../../../src/core/executing/ports';
import { MemoryTranscriptStore } from '../../../src/core/executing/transcripts/transcriptStore';
import { request } from '../../../src/core/port/request';
import { LoomRepository } from '../../../src/core/repository/loomRepository';

/**
 * Another window that ran the tasks of a spec and crashed (6-resume.test.js): Run Tasks over the
 * spec in argv (workspace, spec directory, feature worktree), parallel, with the scripted model's
 * own answers (script.js), killed with SIGKILL once T2's implementer is asked while T1 waits for
 * its merge: the issue's stranded batch (#44). Nothing is released: the lock, the claims, the
 * task worktrees stay as a crash leaves them.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const script = require('../scripted-model-extension/script.js') as { reply(messages: unknown[]): { text: string; toolCalls: { name: string; input: unknown }[] } };

const [workspace, specDir, worktree] = process.argv.slice(2);
const stepOf = (task: string) => {
  const file = join(specDir, 'task-states', `${task}.state.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { metadata?: { step?: string } }).metadata?.step : undefined;
};

/** The conversation as script.js reads it: tool results are a user message's parts, as vscode.lm sends them. */
function asScript(messages: readonly ChatMessage[]) {
  const out: { role: string; text: string; toolResults: number; toolText: string }[] = [];
  for (const m of messages) {
    if (m.role === 'tool') {
      const last = out[out.length - 1];
      if (last?.role === 'user' && last.text === '') {
        last.toolResults++;
        last.toolText += m.content;
      } else out.push({ role: 'user', text: '', toolResults: 1, toolText: m.content });
    } else out.push({ role: m.role, text: m.content, toolResults: 0, toolText: '' });
  }
  return out;
}

let calls = 0;
const model: ChatModel = {
  id: 'loom-test',
  vendor: 'loom-test',
  family: 'loom-test',
  maxInputTokens: 200_000,
  countTokens: async (text) => Math.ceil(text.length / 4),
  async *sendRequest(messages): AsyncIterable<ChatResponsePart> {
    const first = messages.find((m) => m.role === 'user')?.content ?? '';
    const fresh = !messages.some((m) => m.role === 'tool');
    if (fresh && /task T2 \(/.test(first)) {
      // T2's implementer works while T1 waits for its merge: the window dies then.
      while (stepOf('T1') !== 'merge') await new Promise((r) => setTimeout(r, 20));
      process.kill(process.pid, 'SIGKILL');
    }
    const answer = script.reply(asScript(messages));
    if (answer.text) yield { type: 'text', value: answer.text };
    for (const call of answer.toolCalls) yield { type: 'toolCall', callId: `crashed-${++calls}`, name: call.name, input: call.input };
  },
};
const models: ModelSelector = { select: async () => model };
const prompts: UserPrompts = {
  askForContext: async () => undefined,
  chooseBreakerAction: async () => {
    throw new Error('no breaker is expected');
  },
  confirmSkip: async () => false,
  waitForManualFix: async () => undefined,
};

const spec = new LoomRepository(workspace).load().get(relative(workspace, specDir).split('\\').join('/'))!;
request(
  spec,
  {
    type: 'runTasks',
    run: {
      worktree,
      models,
      prompts,
      transcripts: new MemoryTranscriptStore(),
      signal: new AbortController().signal,
      settings: { trusted: true, parallel: true, mode: 'subagent' },
    },
  },
  { confirm: true },
).then(
  (answer) => process.stdout.write(`${JSON.stringify(answer)}\n`),
  (e: unknown) => {
    process.stderr.write(`${(e as Error)?.stack ?? String(e)}\n`);
    process.exitCode = 1;
  },
);
