import type { DispatchSummary, TranscriptEntry } from './transcriptStore';

/**
 * A dispatch transcript (JSONL in the extension's storage) as Markdown a person reads: who was
 * asked what, what they answered and which tools they called. Prompts and tool results are
 * long, so they are cut to an excerpt; replies are shown whole.
 */
export interface TranscriptRenderOptions {
  /** Characters kept of a prompt or a tool result. */
  excerpt?: number;
}

const DEFAULT_EXCERPT = 1200;

/** `T1 · implementer (fix)`: the quick-pick label of a dispatch. */
export function describeDispatch(d: Pick<DispatchSummary, 'task' | 'role'> & { mode?: string }): string {
  return `${d.task} · ${d.role}${d.mode ? ` (${d.mode})` : ''}`;
}

function excerpt(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n… (${text.length - max} more characters)`;
}

/** A fenced block whose fence is longer than any backtick run inside, so the text cannot close it. */
function fenced(text: string, lang = ''): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${text.replace(/\n$/, '')}\n${fence}`;
}

const json = (v: unknown) => JSON.stringify(v, null, 2) ?? String(v);
const asText = (v: unknown) => (typeof v === 'string' ? v : json(v));
const field = (v: unknown, key: string): unknown => (v && typeof v === 'object' && Object.hasOwn(v, key) ? (v as Record<string, unknown>)[key] : undefined);
const time = (at: string) => at.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC');

function toolCallsOf(content: unknown): { name: string; input?: unknown }[] {
  const calls = field(content, 'toolCalls');
  if (!Array.isArray(calls)) return [];
  return calls.map((c) => ({ name: String(field(c, 'name') ?? '?'), input: field(c, 'input') }));
}

function entry(e: TranscriptEntry, max: number): string {
  const when = time(e.at);
  const tokens = e.tokens !== undefined ? `, ${e.tokens} tokens` : '';
  switch (e.kind) {
    case 'request': {
      const prompt = asText(e.content);
      return `## Prompt to the ${e.role} · ${when}${tokens}\n\n${fenced(excerpt(prompt, max))}`;
    }
    case 'reply': {
      const text = String(field(e.content, 'text') ?? (typeof e.content === 'string' ? e.content : ''));
      const calls = toolCallsOf(e.content);
      const out = [`## Reply of the ${e.role} · ${when}${tokens}`, '', text.trim() ? text.trim() : '_(no text)_'];
      if (calls.length) out.push('', `Tool calls: ${calls.map((c) => `\`${c.name}\``).join(', ')}`);
      return out.join('\n');
    }
    case 'tool-call': {
      const name = String(field(e.content, 'name') ?? '?');
      const input = field(e.content, 'input');
      return `### Tool call \`${name}\` · ${when}\n\n${fenced(excerpt(json(input ?? e.content), max), 'json')}`;
    }
    case 'tool-result': {
      const name = String(field(e.content, 'name') ?? '?');
      const outcome = field(e.content, 'outcome');
      const content = field(e.content, 'content');
      return `### Tool result \`${name}\`${outcome !== undefined ? `: ${asText(outcome)}` : ''} · ${when}\n\n${fenced(excerpt(asText(content ?? e.content), max))}`;
    }
    case 'error':
      return `## Error · ${when}\n\n${fenced(asText(e.content))}`;
    default:
      return `## ${String(e.kind)} · ${when}\n\n${fenced(excerpt(asText(e.content), max), 'json')}`;
  }
}

export function renderTranscriptMarkdown(entries: readonly TranscriptEntry[], options: TranscriptRenderOptions = {}): string {
  const max = options.excerpt ?? DEFAULT_EXCERPT;
  const first = entries[0];
  if (!first) return '# Transcript\n\n_This transcript is empty._\n';
  const tokens = entries.reduce((n, e) => n + (e.tokens ?? 0), 0);
  const models = [...new Set(entries.map((e) => e.model).filter((m): m is string => !!m))];
  const head = [
    `# ${describeDispatch(first)}`,
    '',
    `- Spec: \`${first.spec}\``,
    `- Dispatch: \`${first.dispatchId}\``,
    `- Started: ${time(first.at)}`,
    ...(models.length ? [`- Model: ${models.map((m) => `\`${m}\``).join(', ')}`] : []),
    ...(tokens ? [`- Tokens: ${tokens}`] : []),
  ];
  return `${[head.join('\n'), ...entries.map((e) => entry(e, max))].join('\n\n')}\n`;
}
