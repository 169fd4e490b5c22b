import { parseReport } from '../../files/report';
import { isBlocking, parseFixInstructions, type FixItem } from './fixInstructions';

/**
 * The combined reviewer (and the test reporter) answer PASS or FAIL: `verdict: PASS`,
 * `**Verdict:** FAIL`, `结论：通过` / `结论：不通过`, or the bare word on the last line.
 *
 * Decisions:
 * - The last verdict line wins (reports are appended to).
 * - A reply without a verdict is malformed: it is never read as PASS. The loop asks once for a
 *   verdict in the same conversation, then counts a failed review (see machine/taskMachine.ts).
 * - FAIL without a parseable `## 修复指令` / `## Fix instructions` section becomes one fix item
 *   carrying the reviewer's text, so fix mode always has something concrete to act on.
 * - PASS together with a fix item of blocking severity is read as FAIL: no task is finished with
 *   an unfixed blocker (loom's red line).
 */
export type ReviewerVerdict = { ok: true; verdict: 'PASS' | 'FAIL'; fixItems: FixItem[]; overridden?: string } | { ok: false; reason: string };

const BARE = /^[\s>*_`#-]*(PASS|FAIL|通过|不通过)[\s*_`.。!！]*$/;

export function parseReviewerVerdict(text: string): ReviewerVerdict {
  let verdict = parseReport('reply', text).verdict;
  if (!verdict) {
    const last =
      text
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter(Boolean)
        .pop() ?? '';
    const m = BARE.exec(last);
    if (m) verdict = m[1] === 'PASS' || m[1] === '通过' ? 'PASS' : 'FAIL';
  }
  if (!verdict) return { ok: false, reason: 'the reply has no verdict line (verdict: PASS | FAIL, or 结论：通过 / 不通过)' };
  const fixItems = parseFixInstructions(text);
  if (verdict === 'PASS') {
    const blocking = fixItems.filter(isBlocking);
    if (blocking.length > 0) return { ok: true, verdict: 'FAIL', fixItems: blocking, overridden: 'PASS with blocking fix items counts as FAIL' };
    return { ok: true, verdict: 'PASS', fixItems: [] };
  }
  if (fixItems.length > 0) return { ok: true, verdict: 'FAIL', fixItems };
  return { ok: true, verdict: 'FAIL', fixItems: [{ problem: withoutVerdict(text).slice(0, 2000) || 'the reviewer failed the task without saying why' }] };
}

const withoutVerdict = (text: string) =>
  text
    .split(/\r?\n/)
    .filter((l) => !/^[\s>*_`#-]*(verdict|结论)/i.test(l))
    .join('\n')
    .trim();
