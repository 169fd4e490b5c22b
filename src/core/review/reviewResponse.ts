import { readTaskRunRecord } from '../executing/machine/taskRunRecord';
import { t, type Language, type MessageKey } from '../messages';
import { quotedWithoutPlaceholders } from '../files/placeholders';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import type { CommandResult } from '../verification/verificationRun';
import type { FeedbackPoint } from './feedbackPoints';
import { threadPlace } from './openThreads';
import type { ReviewFix } from './reviewFixes';

export const REVIEW_RESPONSE_FILE = 'review-response.md';

/** The line every review-response.md Loom writes carries: a file without it is a person's, never overwritten. */
export const ANSWERED_BY_LINE = '<!-- loom: answered-review -->';
export const ANSWERED_BY_MARK = /^<!-- loom: answered-review -->$/m;

/** What happened to one point of the review, as review-response.md says it. */
export interface AnsweredPoint {
  /** `fixed` (a BLOCKER or a code thread, by its task's fix round), `declined` (a suggestion, with why), `discussion` (answered by a person). */
  answer: 'fixed' | 'declined' | 'discussion';
  point: string;
  /** The task that fixed it, and the files its fix changed. */
  task?: string;
  files?: string[];
  why?: string;
  /** When it was fixed, for a point fixed in an earlier round at the review gate. */
  at?: string;
}

/** The answer to the review as the actor hands it back: what review-response.md says, and its evidence. */
export interface ReviewAnswer {
  file: string;
  handoff?: string;
  points: AnsweredPoint[];
  /** The project's tests re-run after the fixes, their log under `evidence/` with its sha256. */
  tests?: Pick<CommandResult, 'command' | 'exitCode' | 'log' | 'sha256'>;
  verdict: 'PASS' | 'FAIL';
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();

/** The files a task's last checkpoint (its fix) changed. */
function fixFiles(facts: SpecSnapshot, task: string): string[] {
  const cps = readTaskRunRecord(facts.taskStates.get(task)).checkpoints ?? [];
  return cps.length ? cps[cps.length - 1].files : [];
}

/**
 * Each point of the review with its answer: a fix done is `fixed` (its task done again, the files
 * its fix changed); a suggestion is declined with why, as Loom fixes only what the review blocks
 * on and leaves the judgement of a suggestion to the person (loom's skill: "拒绝时必须提供理由");
 * a question or discussion point is left for the person to answer.
 */
export function answeredPoints(facts: SpecSnapshot, points: readonly FeedbackPoint[], fixes: readonly ReviewFix[], language: Language): AnsweredPoint[] {
  const out: AnsweredPoint[] = [];
  for (const f of fixes) {
    const point = f.source.kind === 'feedback' ? f.source.point.text : `${threadPlace(f.source.thread)}: ${f.source.thread.comments[0]?.body ?? ''}`;
    const done = facts.taskStates.get(f.task)?.status === 'done';
    out.push(
      done
        ? { answer: 'fixed', point, task: f.task, files: fixFiles(facts, f.task) }
        : { answer: 'declined', point, task: f.task, why: t('answerReview.response.notFixed', { task: f.task }, language) },
    );
  }
  for (const p of points) {
    if (p.kind === 'suggestion') out.push({ answer: 'declined', point: p.text, why: t('answerReview.response.suggestionWhy', {}, language) });
    if (p.kind === 'discussion') out.push({ answer: 'discussion', point: p.text, why: t('answerReview.response.discussionWhy', {}, language) });
  }
  return out;
}

/**
 * review-response.md in loom's own template (loom-receiving-code-review, response-templates.md):
 * the BLOCKERs fixed with what changed and how it was verified, the suggestions adopted and those
 * declined with the reason, the points left for discussion, then the verification: the tests
 * re-run with their log and sha256, and the verdict line.
 */
export function renderReviewResponse(input: {
  feature: string;
  points: readonly AnsweredPoint[];
  tests?: ReviewAnswer['tests'];
  verdict: 'PASS' | 'FAIL';
  language: Language;
  writer: string;
  now: string;
  /** Answered at the review gate: the sentence that says the reviewer's new verdict and the approval continue. */
  atGate?: string;
}): string {
  const { tests, language: l } = input;
  const say = (key: MessageKey, params: Record<string, string | number> = {}) => (t as (k: MessageKey, p: Record<string, string | number>, l: Language) => string)(key, params, l);
  // The reviewer's own words are quoted; loom's advance (checkStageOutputs) refuses a review-response.md holding a placeholder marker.
  let requoted = false;
  const points = input.points.map((p) => {
    const point = quotedWithoutPlaceholders(p.point);
    if (point === undefined) return p;
    requoted = true;
    return { ...p, point };
  });
  const fixed = points.filter((p) => p.answer === 'fixed');
  const declined = points.filter((p) => p.answer === 'declined');
  const discussion = points.filter((p) => p.answer === 'discussion');
  const passed = tests !== undefined && tests.exitCode === 0;
  const lines = [`# ${say('answerReview.response.title', { feature: input.feature })}`, '', ANSWERED_BY_LINE, say('answerReview.response.by', { writer: input.writer, now: input.now }), ''];
  if (input.atGate) lines.push(say('answerReview.response.atGate', { stage: input.atGate }), '');
  if (requoted) lines.push(say('answerReview.response.placeholderQuoted'), '');
  lines.push(`## ${say('answerReview.response.fixed')}`, '', `### ${say('answerReview.response.blockers')}`, '');
  if (fixed.length) {
    lines.push(`| # | ${say('answerReview.response.col.point')} | ${say('answerReview.response.col.fix')} | ${say('answerReview.response.col.verified')} |`, '|---|---|---|---|');
    fixed.forEach((p, i) =>
      lines.push(
        `| ${i + 1} | ${cell(p.point)} | ${cell(say('answerReview.response.fixedBy', { task: p.task ?? '-', files: (p.files ?? []).join(', ') || '-' }) + (p.at ? ` ${say('answerReview.response.earlier', { at: p.at })}` : ''))} | ${passed ? '✅' : '❌'} ${cell(tests ? `\`${tests.command}\`` : '-')} |`,
      ),
    );
  } else lines.push(say('answerReview.response.noBlockers'));
  lines.push('', `## ${say('answerReview.response.adopted')}`, '', say('answerReview.response.noneAdopted'), '', `## ${say('answerReview.response.declined')}`, '');
  if (declined.length) {
    lines.push(`| # | ${say('answerReview.response.col.point')} | ${say('answerReview.response.col.why')} |`, '|---|---|---|');
    declined.forEach((p, i) => lines.push(`| ${i + 1} | ${cell(p.point)} | ${cell(p.why ?? '-')} |`));
  } else lines.push(say('answerReview.response.noneDeclined'));
  if (discussion.length) {
    lines.push('', `## ${say('answerReview.response.discussion')}`, '');
    discussion.forEach((p) => lines.push(`- ${p.point} — ${p.why ?? ''}`));
  }
  lines.push('', `## ${say('answerReview.response.verification')}`, '');
  if (tests) {
    lines.push(`- [${passed ? 'x' : ' '}] ${say('answerReview.response.testsRun', { command: tests.command, code: tests.exitCode ?? 'timeout' })}`);
    lines.push(`- evidence-command: \`${tests.command}\``, `- evidence-exit-code: ${tests.exitCode ?? 'timeout'}`, `- evidence-file: ${tests.log}`, `- evidence-sha256: ${tests.sha256}`);
  } else lines.push(`- [ ] ${say('answerReview.response.noTests')}`);
  lines.push('', `verdict: ${input.verdict}`, '');
  return lines.join('\n');
}
