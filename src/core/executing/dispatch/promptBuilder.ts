import type { Requirement } from '../../files/requirements';
import type { TraceabilityLedger } from '../../files/traceability';
import { renderFixInstructions, type FixItem } from './fixInstructions';
import { renderTemplate, type PromptLanguage, type PromptTemplates } from './prompts/promptTemplates';
import { clip, relevantSpecSections } from './specSections';
import { t } from '../../messages';

/**
 * Builds every prompt of the executing stage after loom's context rules: first-implementation
 * mode gets the task, the spec sections it needs, its requirement and behavior entries with
 * their traceability, the subagent context and a compact index of upstream handoffs; fix mode
 * gets only the fix instructions, the subagent context and the task's requirement and behavior
 * lines, never the task or the spec again.
 */
export interface PromptContext {
  specName: string;
  language: PromptLanguage;
  templates: PromptTemplates;
  specText: string;
  subagentContext: string;
  constitution: string;
  requirements: readonly Requirement[];
  traceability?: TraceabilityLedger;
  testCommand?: string;
}

export interface PromptTask {
  id: string;
  title: string;
  /** tasks/TN.md as written. */
  text: string;
  owns: readonly string[];
  requirements: readonly string[];
  behavior_ids: readonly string[];
}

/** A question the implementer asked (NEEDS_CONTEXT) and the user's answer. */
export interface ContextAnswer {
  question: string;
  answer: string;
}

const LIMITS = { spec: 12000, diff: 60000, task: 8000, context: 6000, constitution: 6000 };

const none = (lang: PromptLanguage) => t('prompt.none', {}, lang);
const orNone = (value: string, lang: PromptLanguage) => (value.trim() ? value.trim() : none(lang));

/** The task's requirements with only the behaviors it names (all of them when it names none). */
export function taskRequirements(requirements: readonly Requirement[], task: Pick<PromptTask, 'requirements' | 'behavior_ids'>): Requirement[] {
  const behaviorIds = new Set(task.behavior_ids);
  const requirementIds = new Set(task.requirements);
  for (const b of behaviorIds) requirementIds.add(b.replace(/-B\d+$/, ''));
  return requirements.filter((r) => requirementIds.has(r.id)).map((r) => ({ ...r, behaviors: behaviorIds.size ? r.behaviors.filter((b) => behaviorIds.has(b.id)) : r.behaviors }));
}

/** Full entries, as first-implementation mode and the reviewer see them. */
export function renderRequirementEntries(reqs: readonly Requirement[]): string {
  const out: string[] = [];
  for (const r of reqs) {
    out.push(`### ${r.id}${r.types?.length ? ` (${r.types.join(', ')})` : ''}`);
    for (const a of r.acceptance) out.push(`- acceptance: ${a}`);
    for (const b of r.behaviors) {
      out.push(`- **${b.id}** [${b.category}] ${b.description}`);
      for (const a of b.acceptance) out.push(`  - acceptance: ${a}`);
      const plan = b.test_plan;
      if (plan) {
        if (plan.strategy) out.push(`  - test strategy: ${plan.strategy}`);
        if (plan.inputs?.length) out.push(`  - inputs: ${plan.inputs.map(String).join('; ')}`);
        if (plan.expected?.length) out.push(`  - expected: ${plan.expected.map(String).join('; ')}`);
      }
    }
  }
  return out.join('\n');
}

/**
 * What fix mode repeats of the task (loom: "原 task 的 Requirement ID、behavior_ids 与对应验收标准，
 * 只传相关行"): each requirement id, and each behavior id with its acceptance criteria, one line each.
 */
export function renderRequirementLines(reqs: readonly Requirement[]): string {
  const out: string[] = [];
  const short = (s: string) => clip(s.replace(/\s+/g, ' '), 120, '…');
  for (const r of reqs) {
    out.push(`- ${r.id}`);
    for (const b of r.behaviors) out.push(`  - ${b.id}: ${short(b.acceptance.length ? b.acceptance.join('; ') : b.description)}`);
  }
  return out.join('\n');
}

/** The task's rows of traceability.json: the behaviors' tasks, tests and evidence so far. */
export function renderTaskTraceability(ledger: TraceabilityLedger | undefined, task: Pick<PromptTask, 'requirements' | 'behavior_ids'>): string {
  if (!ledger) return '';
  const wanted = new Set(task.behavior_ids);
  const out: string[] = [];
  const list = (xs: readonly string[]) => (xs.length ? xs.join(', ') : '-');
  for (const entry of ledger.requirements) {
    const behaviors = Object.entries(entry.behaviors ?? {}).filter(([id]) => wanted.has(id));
    if (!task.requirements.includes(entry.id) && behaviors.length === 0) continue;
    out.push(`- ${entry.id}: tasks ${list(entry.tasks)}`);
    for (const [id, b] of behaviors) out.push(`  - ${id}: tasks ${list(b.tasks)}; tests ${list(b.tests)}; evidence ${list(b.evidence)}`);
  }
  return out.join('\n');
}

function renderAnswers(answers: readonly ContextAnswer[], lang: PromptLanguage): string {
  if (answers.length === 0) return '';
  return `\n${t('prompt.userContext', {}, lang)}\n${answers.map((x) => t('prompt.userAnswer', { question: x.question, answer: x.answer }, lang)).join('\n')}\n`;
}

const ownsText = (owns: readonly string[], lang: PromptLanguage) => (owns.length ? owns.join(', ') : none(lang));
const testCommandText = (ctx: PromptContext) => ctx.testCommand ?? t('prompt.testCommand', {}, ctx.language);

function common(ctx: PromptContext): Map<string, string> {
  return new Map([
    ['spec_name', ctx.specName],
    ['subagent_context', orNone(clip(ctx.subagentContext, LIMITS.context), ctx.language)],
    ['test_command', testCommandText(ctx)],
    // The loop's own tool; the agent files Loom contributes name the terminal instead (agentHost/agents.ts).
    ['run_tests', t('prompt.runTests.tool', { command: testCommandText(ctx) }, ctx.language)],
  ]);
}

export function buildImplementerPrompt(ctx: PromptContext, task: PromptTask, extra: { upstreamHandoffs: string; answers?: readonly ContextAnswer[] }): string {
  const reqs = taskRequirements(ctx.requirements, task);
  const ids = [...new Set([...task.requirements, ...task.behavior_ids, ...reqs.map((r) => r.id)])];
  const v = common(ctx);
  v.set('task_id', task.id);
  v.set('task_title', task.title);
  v.set('owns', ownsText(task.owns, ctx.language));
  v.set('task_file', clip(task.text.trim(), LIMITS.task));
  v.set('requirements', orNone(renderRequirementEntries(reqs), ctx.language));
  v.set('traceability', orNone(renderTaskTraceability(ctx.traceability, task), ctx.language));
  v.set('spec_sections', orNone(relevantSpecSections(ctx.specText, ids, LIMITS.spec), ctx.language));
  v.set('upstream_handoffs', orNone(extra.upstreamHandoffs, ctx.language));
  v.set('constitution', orNone(clip(ctx.constitution, LIMITS.constitution), ctx.language));
  v.set('extra_context', renderAnswers(extra.answers ?? [], ctx.language));
  return renderTemplate(ctx.templates['implementer-prompt'], v);
}

/**
 * Fix mode for a task, or for the test reporter's findings (then `task` names every task's
 * requirements and the union of their owns).
 */
export function buildFixPrompt(
  ctx: PromptContext,
  task: Pick<PromptTask, 'id' | 'owns' | 'requirements' | 'behavior_ids'>,
  fixItems: readonly FixItem[],
  extra: { answers?: readonly ContextAnswer[] } = {},
): string {
  const v = common(ctx);
  v.set('task_id', task.id);
  v.set('owns', ownsText(task.owns, ctx.language));
  v.set('fix_instructions', renderFixInstructions(fixItems, ctx.language));
  v.set('requirement_lines', orNone(renderRequirementLines(taskRequirements(ctx.requirements, task)), ctx.language));
  v.set('extra_context', renderAnswers(extra.answers ?? [], ctx.language));
  return renderTemplate(ctx.templates['implementer-fix-prompt'], v);
}

export function buildReviewerPrompt(ctx: PromptContext, task: PromptTask, extra: { diff: string; implementerReport: string }): string {
  const v = common(ctx);
  v.set('task_id', task.id);
  v.set('task_title', task.title);
  v.set('owns', ownsText(task.owns, ctx.language));
  v.set('task_file', clip(task.text.trim(), LIMITS.task));
  v.set('behaviors', orNone(renderRequirementEntries(taskRequirements(ctx.requirements, task)), ctx.language));
  v.set('implementer_report', orNone(clip(extra.implementerReport, 4000), ctx.language));
  v.set('constitution', orNone(clip(ctx.constitution, LIMITS.constitution), ctx.language));
  v.set('diff', orNone(clip(extra.diff, LIMITS.diff, '\n… (diff truncated; read the changed files with the tools)'), ctx.language));
  return renderTemplate(ctx.templates['combined-reviewer-prompt'], v);
}

export function buildTestReporterPrompt(ctx: PromptContext, extra: { finishedTasks: readonly string[]; answers?: readonly ContextAnswer[] }): string {
  const v = common(ctx);
  v.set('spec_sections', orNone(clip(ctx.specText, LIMITS.spec), ctx.language));
  v.set('requirements', orNone(renderRequirementEntries(ctx.requirements), ctx.language));
  const all = { requirements: ctx.requirements.map((r) => r.id), behavior_ids: ctx.requirements.flatMap((r) => r.behaviors.map((b) => b.id)) };
  v.set('traceability', orNone(renderTaskTraceability(ctx.traceability, all), ctx.language));
  v.set('finished_tasks', orNone(extra.finishedTasks.map((t) => `- ${t}`).join('\n'), ctx.language));
  v.set('constitution', orNone(clip(ctx.constitution, LIMITS.constitution), ctx.language));
  v.set('extra_context', renderAnswers(extra.answers ?? [], ctx.language));
  return renderTemplate(ctx.templates['test-reporter-prompt'], v);
}
