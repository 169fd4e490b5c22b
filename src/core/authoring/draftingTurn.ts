import type { ChatMessage, ChatModel } from '../executing/dispatch/chatModel';
import { DraftStream, mergeDrafts, type Draft, type DraftStreamEvent } from './draftBlocks';
import { refusedDraft } from './draftCheck';
import type { AuthoringCommand } from './stageCommands';

/** A file the model proposed that the command may not write: it never enters the drafts. */
export interface RefusedDraft {
  path: string;
  /** Why, as a sentence for the model and the person. */
  reason: string;
}

/** What the chat shows while a turn runs. */
export type DraftingEvent = DraftStreamEvent | { type: 'checking' } | { type: 'repair'; attempt: number; problems: readonly string[] } | { type: 'refused'; path: string; reason: string };

export interface DraftingTurnInput {
  model: ChatModel;
  messages: readonly ChatMessage[];
  /** Spec-relative paths in the model's blocks are normalised against it. */
  specDir: string;
  /** What the turn drafts: a file it may not write is refused by name and kept out of the set. */
  command: AuthoringCommand;
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
  /** Files refused in the last reply (earlier refusals the model since withdrew or dropped are not kept). */
  refused: RefusedDraft[];
  /** Each request of the turn, what was sent and what came back: priced and recorded as the subagents' are. */
  requests: DraftingRequest[];
}

/** One request of a drafting turn: the conversation sent, and the reply's text. */
export interface DraftingRequest {
  sent: readonly ChatMessage[];
  reply: string;
}

interface Reply {
  text: string;
  /** The drafts the command may write. */
  drafts: Draft[];
  withdrawn: string[];
  refused: RefusedDraft[];
}

/** One reply, streamed: prose and file starts as they come, drafts at the end. */
async function streamReply(input: DraftingTurnInput, messages: readonly ChatMessage[]): Promise<Reply> {
  const stream = new DraftStream(input.specDir);
  let text = '';
  for await (const part of input.model.sendRequest(messages, { signal: input.signal })) {
    if (part.type !== 'text') continue;
    text += part.value;
    for (const e of stream.push(part.value)) input.onEvent(e);
  }
  for (const e of stream.end()) input.onEvent(e);
  const drafts: Draft[] = [];
  const refused: RefusedDraft[] = [];
  for (const d of stream.drafts) {
    const reason = refusedDraft(input.command, d.path);
    if (reason === undefined) drafts.push(d);
    else {
      refused.push({ path: d.path, reason });
      input.onEvent({ type: 'refused', path: d.path, reason });
    }
  }
  return { text, drafts, withdrawn: [...stream.withdrawn], refused };
}

/** The checks' problems, with the refused files first: the model must hear why they were left out. */
const withRefusals = (refused: readonly RefusedDraft[], problems: readonly string[]) => [...refused.map((r) => r.reason), ...problems];

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
  const requests: DraftingRequest[] = [{ sent: [...conversation], reply: first.text }];
  const proposedAny = first.drafts.length + first.refused.length + first.withdrawn.length > 0;
  if (!proposedAny) return { replies, drafts: [...input.pending], proposed: false, problems: [], repairs: 0, refused: [], requests };

  let drafts = mergeDrafts(input.pending, first.drafts, first.withdrawn);
  let refused = first.refused;
  input.onEvent({ type: 'checking' });
  let problems = drafts.length ? input.check(drafts) : [];
  let repairs = 0;
  let last = first.text;
  // A reply of refused files only is a reply to correct as well: nothing of it could be written.
  while ((problems.length || (refused.length && !drafts.length)) && repairs < maxRepairs && !input.signal.aborted) {
    repairs++;
    const told = withRefusals(refused, problems);
    input.onEvent({ type: 'repair', attempt: repairs, problems: told });
    conversation.push({ role: 'assistant', content: last }, input.repairMessage(told));
    const next = await streamReply(input, conversation);
    replies.push(next.text);
    requests.push({ sent: [...conversation], reply: next.text });
    last = next.text;
    drafts = mergeDrafts(drafts, next.drafts, next.withdrawn);
    refused = next.refused;
    input.onEvent({ type: 'checking' });
    problems = drafts.length ? input.check(drafts) : [];
  }
  if (!drafts.length && refused.length) problems = withRefusals(refused, problems);
  return { replies, drafts, proposed: true, problems, repairs, refused, requests };
}
