/**
 * The file blocks a model writes in its reply, one per file:
 *
 *     === FILE: requirements.json ===
 *     { ... }
 *     === END FILE ===
 *
 * A marker line of its own, not a Markdown fence: spec.md and task files hold fences themselves.
 * A correction may take back a file it proposed before with a line of its own,
 * `=== WITHDRAW: review-feedback.md ===`: later drafts replace earlier ones file by file, so
 * without it a refused file could never leave the set.
 * Everything outside the blocks is prose for the user. The parser is incremental so the chat can
 * show prose while the model is still writing, and say which file it is drafting.
 */

/** One file the model proposes, spec-relative. `complete` is false when the reply ended inside it. */
export interface Draft {
  path: string;
  content: string;
  complete: boolean;
}

export type DraftStreamEvent = { type: 'prose'; text: string } | { type: 'fileStart'; path: string } | { type: 'fileEnd'; draft: Draft } | { type: 'withdraw'; path: string };

const START = /^\s*={3,}\s*FILE:\s*(.+?)\s*={3,}\s*$/i;
const END = /^\s*={3,}\s*END(?:\s+FILE)?\s*={3,}\s*$/i;
const WITHDRAW = /^\s*={3,}\s*WITHDRAW:\s*(.+?)\s*={3,}\s*$/i;

/**
 * The path as the model wrote it, made spec-relative: quotes, backticks and a leading `./` go,
 * and so does the spec directory when the model repeated it (`specs/<name>/spec.md`).
 */
export function normalizeDraftPath(raw: string, specDir?: string): string {
  let p = raw
    .trim()
    .replace(/^[`'"]+|[`'"]+$/g, '')
    .replace(/\\/g, '/')
    .replace(/^\.\//, '');
  if (specDir) {
    const prefix = `${specDir.replace(/\/+$/, '')}/`;
    if (p.startsWith(prefix)) p = p.slice(prefix.length);
  }
  return p;
}

export class DraftStream {
  private buffer = '';
  private current?: { path: string; lines: string[] };
  private readonly done: Draft[] = [];
  private readonly taken: string[] = [];

  constructor(private readonly specDir?: string) {}

  /** Feeds a chunk of the reply; returns what became known with it. */
  push(chunk: string): DraftStreamEvent[] {
    this.buffer += chunk;
    const events: DraftStreamEvent[] = [];
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl).replace(/\r$/, '');
      this.buffer = this.buffer.slice(nl + 1);
      this.line(line, true, events);
    }
    return events;
  }

  /** The reply is over: the last line, and a block left open (marked incomplete). */
  end(): DraftStreamEvent[] {
    const events: DraftStreamEvent[] = [];
    if (this.buffer) this.line(this.buffer.replace(/\r$/, ''), false, events);
    this.buffer = '';
    if (this.current) this.close(false, events);
    return events;
  }

  get drafts(): readonly Draft[] {
    return this.done;
  }

  /** Files the reply took back (spec-relative), in the order it named them. */
  get withdrawn(): readonly string[] {
    return this.taken;
  }

  private line(line: string, newline: boolean, events: DraftStreamEvent[]): void {
    const start = START.exec(line);
    if (start && !END.test(line)) {
      if (this.current) this.close(false, events);
      this.current = { path: normalizeDraftPath(start[1], this.specDir), lines: [] };
      events.push({ type: 'fileStart', path: this.current.path });
      return;
    }
    const withdraw = this.current ? null : WITHDRAW.exec(line);
    if (withdraw) {
      const path = normalizeDraftPath(withdraw[1], this.specDir);
      this.taken.push(path);
      events.push({ type: 'withdraw', path });
      return;
    }
    if (this.current) {
      if (END.test(line)) this.close(true, events);
      else this.current.lines.push(line);
      return;
    }
    events.push({ type: 'prose', text: newline ? `${line}\n` : line });
  }

  private close(complete: boolean, events: DraftStreamEvent[]): void {
    const c = this.current!;
    this.current = undefined;
    const content = c.lines.length ? `${c.lines.join('\n')}\n` : '';
    const draft = { path: c.path, content, complete };
    this.done.push(draft);
    events.push({ type: 'fileEnd', draft });
  }
}

/**
 * The summary a drafting stage's handoff takes from the model's replies: the first paragraph of
 * their prose, the file blocks aside. One rule for `@loom`, Refine and Run Pipeline.
 */
export function replySummary(replies: readonly string[]): string {
  const prose = replies
    .map((r) => parseDrafts(r).prose)
    .join('\n')
    .trim();
  return prose.split(/\n\s*\n/)[0] ?? '';
}

/** Every file block of a whole reply, and its prose. */
export function parseDrafts(reply: string, specDir?: string): { drafts: Draft[]; prose: string } {
  const stream = new DraftStream(specDir);
  const events = [...stream.push(reply), ...stream.end()];
  const prose = events
    .filter((e): e is Extract<DraftStreamEvent, { type: 'prose' }> => e.type === 'prose')
    .map((e) => e.text)
    .join('');
  return { drafts: [...stream.drafts], prose };
}

/**
 * Later drafts of the same file replace earlier ones; order of first appearance is kept. A file
 * the later reply withdrew leaves the set, unless that reply also drafted it again.
 */
export function mergeDrafts(earlier: readonly Draft[], later: readonly Draft[], withdrawn: readonly string[] = []): Draft[] {
  const byPath = new Map<string, Draft>();
  for (const d of earlier) byPath.set(d.path, d);
  for (const path of withdrawn) byPath.delete(path);
  for (const d of later) byPath.set(d.path, d);
  return [...byPath.values()];
}

/** A draft as a file block again, to show the model what it proposed before. */
export const renderDraft = (d: Pick<Draft, 'path' | 'content'>) => `=== FILE: ${d.path} ===\n${d.content.replace(/\n$/, '')}\n=== END FILE ===\n`;
