/**
 * The implementer ends with one status line: DONE, DONE_WITH_CONCERNS, NEEDS_CONTEXT or BLOCKED.
 * Accepted forms: `STATUS: DONE`, `**Status:** BLOCKED — no database`, `状态：NEEDS_CONTEXT`,
 * `状态：完成但有顾虑`, or the bare upper-case token on a line of its own (`DONE`, `BLOCKED: x`).
 * The last status line wins; a reply without one is malformed, never taken as DONE.
 */
export const IMPLEMENTER_STATUSES = ['DONE', 'DONE_WITH_CONCERNS', 'NEEDS_CONTEXT', 'BLOCKED'] as const;
export type ImplementerStatus = (typeof IMPLEMENTER_STATUSES)[number];

export type ParsedImplementerStatus = { ok: true; status: ImplementerStatus; detail: string; line: number } | { ok: false; reason: string };

// Longest first, so DONE_WITH_CONCERNS is not read as DONE.
const TOKENS: ReadonlyArray<[string, ImplementerStatus]> = [
  ['DONE_WITH_CONCERNS', 'DONE_WITH_CONCERNS'],
  ['NEEDS_CONTEXT', 'NEEDS_CONTEXT'],
  ['BLOCKED', 'BLOCKED'],
  ['DONE', 'DONE'],
  ['完成但有顾虑', 'DONE_WITH_CONCERNS'],
  ['完成（有顾虑）', 'DONE_WITH_CONCERNS'],
  ['完成(有顾虑)', 'DONE_WITH_CONCERNS'],
  ['需要上下文', 'NEEDS_CONTEXT'],
  ['缺少上下文', 'NEEDS_CONTEXT'],
  ['需补充上下文', 'NEEDS_CONTEXT'],
  ['被阻塞', 'BLOCKED'],
  ['阻塞', 'BLOCKED'],
  ['受阻', 'BLOCKED'],
  ['完成', 'DONE'],
];

const LABELLED = /^[\s>*_`#-]*(?:final\s+status|status|最终状态|状态)[\s*_`]*[:：][\s*_`]*(.*)$/i;
const BARE = /^[\s>*_`#-]*(DONE_WITH_CONCERNS|NEEDS_CONTEXT|BLOCKED|DONE)(?![A-Za-z_])(.*)$/;
const SEPARATOR = /^[\s*_`]*(?:[:：\-—–(（]|$)/;

function tokenAt(rest: string, caseInsensitive: boolean): { status: ImplementerStatus; after: string } | undefined {
  for (const [token, status] of TOKENS) {
    const head = rest.slice(0, token.length);
    if (head === token || (caseInsensitive && head.toUpperCase() === token)) {
      const after = rest.slice(token.length);
      // `DONEX` or `DONE_SOMETHING` is not a status.
      if (/^[A-Za-z_]/.test(after) && /^[A-Z_]+$/.test(token)) continue;
      return { status, after };
    }
  }
  return undefined;
}

const cleanDetail = (s: string) =>
  s
    .replace(/^[\s*_`]*[:：\-—–(（]?\s*/, '')
    .replace(/[\s*_`)）]*$/, '')
    .trim();

export function parseImplementerStatus(text: string): ParsedImplementerStatus {
  const lines = text.split(/\r?\n/);
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i];
    const labelled = LABELLED.exec(line);
    if (labelled) {
      const hit = tokenAt(labelled[1].trim(), true);
      if (hit) return { ok: true, status: hit.status, detail: detailOf(lines, i, cleanDetail(hit.after)), line: i + 1 };
      continue;
    }
    const bare = BARE.exec(line);
    if (bare && SEPARATOR.test(bare[2])) {
      return { ok: true, status: bare[1] as ImplementerStatus, detail: detailOf(lines, i, cleanDetail(bare[2])), line: i + 1 };
    }
  }
  return { ok: false, reason: 'the reply has no status line (DONE, DONE_WITH_CONCERNS, NEEDS_CONTEXT or BLOCKED)' };
}

/** The text on the status line, else the paragraph just above it (the question or the blocker). */
function detailOf(lines: readonly string[], at: number, onLine: string): string {
  if (onLine) return onLine;
  const paragraph: string[] = [];
  let i = at - 1;
  while (i >= 0 && lines[i].trim() === '') i--;
  for (; i >= 0 && lines[i].trim() !== ''; i--) paragraph.unshift(lines[i].trim());
  return paragraph.join(' ').slice(0, 800);
}
