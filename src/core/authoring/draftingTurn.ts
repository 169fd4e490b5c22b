import type { ChatMessage, ChatModel } from '../executing/dispatch/chatModel';
import { DraftStream, mergeDrafts, type Draft, type DraftStreamEvent } from './draftBlocks';

/** What the chat shows while a turn runs. */
export type DraftingEvent = DraftStreamEvent | { type: 'checking' } | { type: 'repair'; attempt: number; problems: readonly string[] };

export interface DraftingTurnInput {
  model: ChatModel;
  messages: readonly ChatMessage[];
  /** Spec-relative paths in the model's blocks are normalised against it. */
  specDir: string;
  /** Drafts pending from earlier turns: the new ones replace them file by file. */
  pending: readonly Draft[];
  /** The checks the drafts must pass: problems, or none. */
  check: (drafts: readonly Draft[]) => string[];
  /** The follow-up that sends problems back. */
  repairMessage: (problems: readonly string[]) => ChatMessage;
  onEvent: (e: DraftingEvent) => void;
  signal: AbortSignal;
  /** At most this many re-prompts (the "at most twice"). */
  maxRepairs?: number;
}

export interface DraftingTurnResult {
  /** The model's replies, in order: the first answer and each repair. */
  replies: string[];
  /** All drafts after this turn (pending ones merged with new ones); empty when it wrote none. */
  drafts: Draft[];
  /** Whether the model proposed files in this turn (a turn may be only conversation). */
  proposed: boolean;
  /** What the checks still find after the repairs. */
  problems: string[];
  repairs: number;
}

/** One reply, streamed: prose and file starts as they come, drafts at the end. */
async function streamReply(input: DraftingTurnInput, messages: readonly ChatMessage[]): Promise<{ text: string; drafts: Draft[] }> {
  const stream = new DraftStream(input.specDir);
  let text = '';
  for await (const part of input.model.sendRequest(messages, { signal: input.signal })) {
    if (part.type !== 'text') continue;
    text += part.value;
    for (const e of stream.push(part.value)) input.onEvent(e);
  }
  for (const e of stream.end()) input.onEvent(e);
  return { text, drafts: [...stream.drafts] };
}

/**
 * One chat turn of an authoring command: the model answers; when it proposes files they are
 * checked, and while checks fail it is asked to correct them, at most `maxRepairs` times. A reply
 * without file blocks is conversation (approaches, questions) and is returned as is.
 */
export async function runDraftingTurn(input: DraftingTurnInput): Promise<DraftingTurnResult> {
  const maxRepairs = input.maxRepairs ?? 2;
  const conversation = [...input.messages];
  const first = await streamReply(input, conversation);
  const replies = [first.text];
  if (!first.drafts.length) return { replies, drafts: [...input.pending], proposed: false, problems: [], repairs: 0 };

  let drafts = mergeDrafts(input.pending, first.drafts);
  input.onEvent({ type: 'checking' });
  let problems = input.check(drafts);
  let repairs = 0;
  let last = first.text;
  while (problems.length && repairs < maxRepairs && !input.signal.aborted) {
    repairs++;
    input.onEvent({ type: 'repair', attempt: repairs, problems });
    conversation.push({ role: 'assistant', content: last }, input.repairMessage(problems));
    const next = await streamReply(input, conversation);
    replies.push(next.text);
    last = next.text;
    drafts = mergeDrafts(drafts, next.drafts);
    input.onEvent({ type: 'checking' });
    problems = input.check(drafts);
  }
  return { replies, drafts, proposed: true, problems, repairs };
}
