import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REVIEW_FEEDBACK_FILE } from '../files/vocabulary';
import { t } from '../messages';

/**
 * What loom's receiving-code-review skill sorts a review into (Step 1): BLOCKER must be fixed,
 * SUGGESTION is adopted or declined with a reason, a question or discussion point is answered.
 */
export type PointKind = 'blocker' | 'suggestion' | 'discussion';

/** One point of review-feedback.md: a list item, its severity, and the code it names. */
export interface FeedbackPoint {
  kind: PointKind;
  /** The point as the reviewer wrote it, on one line, without its severity word. */
  text: string;
  /** Repository-relative file the point names (`src/greet.js`), when it names one. */
  file?: string;
  /** The line or range it names (`12`, `12-14`). */
  location?: string;
  /** The line of review-feedback.md it is on (1-based). */
  line: number;
}

/** The points of review-feedback.md, or why it cannot be read as a review. */
export type ReviewFeedback = { points: FeedbackPoint[] } | { problem: string; line?: number };

const BLOCKER = /\b(BLOCKER|BLOCKING|MUST[- ]FIX|CHANGES?[_ ]REQUESTED)\b|必须修复|阻断/i;
const SUGGESTION = /\b(SUGGESTION|NIT|NITPICK|OPTIONAL|MINOR)\b|建议/i;
const DISCUSSION = /\b(QUESTION|DISCUSSION|DISCUSS)\b|讨论|疑问|问题/i;
/** A list item: `- …`, `* …`, `1. …`. */
const ITEM = /^\s{0,3}(?:[-*+]|\d+[.)])\s+(.*\S)\s*$/;
/** A severity at the head of an item: `BLOCKER:`, `[BLOCKER]`, `**BLOCKER**:`, `BLOCKER —`. */
const LEADING_SEVERITY = /^\s*(?:\*\*|__)?\[?\s*([A-Za-z_ -]{2,20}|[\u4e00-\u9fff]{2,4})\s*\]?(?:\*\*|__)?\s*[:：—–-]?\s*/;
/** A code location in backticks: `src/greet.js:12` or `src/greet.js:12-14` or `src/greet.js`. */
const CODE_PLACE = /`([^`\s]+\.[A-Za-z0-9]+|[^`\s]+\/[^`\s]+)(?::(\d+(?:-\d+)?))?`/;

function kindOf(words: string): PointKind | undefined {
  if (BLOCKER.test(words)) return 'blocker';
  if (SUGGESTION.test(words)) return 'suggestion';
  if (DISCUSSION.test(words)) return 'discussion';
  return undefined;
}

/** The severity an item states at its head, and the item without it. */
function leadingKind(item: string): { kind?: PointKind; rest: string } {
  const m = LEADING_SEVERITY.exec(item);
  if (m) {
    const kind = kindOf(m[1]);
    if (kind) return { kind, rest: item.slice(m[0].length).trim() };
  }
  return { rest: item };
}

/**
 * review-feedback.md read as loom's receiving-code-review skill reads it: each list item is a
 * point, its severity said at its head (`- BLOCKER: …`, `- [SUGGESTION] …`) or by the heading it
 * is under (`## BLOCKER`, `## 建议`); an item with neither is a point for discussion. The file
 * cannot be read as a review when it is not text, or when it says BLOCKER where no point can be
 * found to fix (a BLOCKER in a paragraph): fixing nothing would then answer it wrongly.
 */
export function parseReviewFeedback(text: string, file = REVIEW_FEEDBACK_FILE): ReviewFeedback {
  if (text.includes('\u0000')) return { problem: t('answerReview.feedbackNotText', { file }) };
  const points: FeedbackPoint[] = [];
  let section: PointKind | undefined;
  let inFence = false;
  const lines = text.split(/\r?\n/);
  for (const [i, line] of lines.entries()) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence) continue;
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      section = kindOf(heading[1]);
      continue;
    }
    const item = ITEM.exec(line);
    if (item) {
      const { kind, rest } = leadingKind(item[1]);
      const place = CODE_PLACE.exec(rest);
      points.push({
        kind: kind ?? section ?? 'discussion',
        text: rest.replace(/\s+/g, ' '),
        line: i + 1,
        ...(place ? { file: place[1].replace(/^\.\//, ''), ...(place[2] ? { location: place[2] } : {}) } : {}),
      });
      continue;
    }
    // A continuation line of the item above.
    if (line.trim() && /^\s{2,}\S/.test(line) && points.length && points[points.length - 1].line === i) {
      const last = points[points.length - 1];
      last.text = `${last.text} ${line.trim()}`;
      last.line = i + 1;
      continue;
    }
    if (BLOCKER.test(line) && !/^\s*verdict\s*:/i.test(line) && !/^\s*(reviewer|审查者)\s*:/i.test(line)) {
      return { problem: t('answerReview.blockerNotAPoint', { file, line: i + 1 }), line: i + 1 };
    }
  }
  return { points };
}

/** The spec's review-feedback.md, read afresh: its points, or why it cannot be answered (missing, unreadable). */
export function readReviewFeedback(dir: string, specDir: string): ReviewFeedback | { missing: true } {
  let text: string;
  try {
    text = readFileSync(join(dir, REVIEW_FEEDBACK_FILE), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { missing: true };
    return { problem: t('answerReview.feedbackUnreadable', { file: `${specDir}/${REVIEW_FEEDBACK_FILE}`, detail: (e as Error).message }) };
  }
  return parseReviewFeedback(text, `${specDir}/${REVIEW_FEEDBACK_FILE}`);
}
