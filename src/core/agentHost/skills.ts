import { stringify } from 'yaml';
import { BRAINSTORM_STAGE_EN, EXPAND_STAGE_EN, PLAN_STAGE_EN, RESPOND_STAGE_EN, REVIEW_STAGE_EN } from '../authoring/prompts/authoringEn';
import { BRAINSTORM_STAGE_ZH, EXPAND_STAGE_ZH, PLAN_STAGE_ZH, RESPOND_STAGE_ZH, REVIEW_STAGE_ZH } from '../authoring/prompts/authoringZh';
import { renderTemplate } from '../executing/dispatch/prompts/promptTemplates';
import { BEHAVIOR_CATEGORIES } from '../files/vocabulary';
import { pipelineTextMessages } from '../messages/pipelineTexts';
import { t, type Language, type MessageKey } from '../messages';

/**
 * The skills Loom contributes to VS Code's agents (`contributes.chatSkills`), one per stage, and
 * one that says where a spec stands. Their texts are the ones `@loom` drafts with (the stage
 * prompts of src/core/authoring/prompts) and the ones the tree shows (loom's pipeline texts),
 * put together here, so a change to a prompt changes the skill with it; `npm run agent-files`
 * writes them and a unit test fails while the written files differ.
 */
export interface LoomSkill {
  /** The Agent Skills name: lowercase letters, digits and single hyphens, at most 64 characters; the folder is named so. */
  name: string;
  /** The stages it serves, in pipeline order; empty for the status skill, which serves any. */
  stages: readonly string[];
  /** Loom's MCP tools that check the stage's work. */
  checks: readonly string[];
  /** What the work is: the `@loom` prompt of the stage, or a text of its own. */
  work: Readonly<Record<Language, string>> | MessageKey;
  /** Whether the agent writes the stage's files itself (the drafting stages). */
  writesFiles?: boolean;
  /** A second text for a stage it serves that waits (review-gate). */
  extra?: MessageKey;
}

const categories = new Map([['categories', BEHAVIOR_CATEGORIES.join(', ')]]);
const both = (en: string, zh: string) => ({ en: renderTemplate(en, categories), zh: renderTemplate(zh, categories) });

/**
 * Why a skill name breaks the Agent Skills rules VS Code applies, or undefined: 1 to 64 lowercase
 * letters, digits and hyphens, no hyphen at either end or twice in a row. VS Code does not report
 * a bad name: it drops the skill or renames it after its folder, so the check is ours.
 */
export function skillNameProblem(name: string): string | undefined {
  if (name.length < 1 || name.length > 64) return `"${name}" has ${name.length} characters; a skill name has 1 to 64`;
  if (!/^[a-z0-9-]+$/.test(name)) return `"${name}" may hold only lowercase letters, digits and hyphens`;
  if (name.startsWith('-') || name.endsWith('-') || name.includes('--')) return `"${name}" starts or ends with a hyphen, or has two in a row`;
  return undefined;
}

const code = (s: string) => `\`${s}\``;

/** The stages a skill serves, as a list of code spans. */
export const stageList = (skill: Pick<LoomSkill, 'stages'>, lang: Language) => skill.stages.map(code).join(t('agentHost.join.list', {}, lang));

export const STATUS_SKILL = 'loom-vscode-status';

export const LOOM_SKILLS: readonly LoomSkill[] = [
  { name: 'loom-vscode-brainstorming', stages: ['brainstorming'], checks: ['loom_check_stage'], work: both(BRAINSTORM_STAGE_EN, BRAINSTORM_STAGE_ZH), writesFiles: true },
  { name: 'loom-vscode-detail-expansion', stages: ['detail-expansion'], checks: ['loom_detail_expansion_check'], work: both(EXPAND_STAGE_EN, EXPAND_STAGE_ZH), writesFiles: true },
  { name: 'loom-vscode-planning', stages: ['planning', 'analyze-artifacts'], checks: ['loom_validate_plan', 'loom_analyze_artifacts'], work: both(PLAN_STAGE_EN, PLAN_STAGE_ZH), writesFiles: true },
  { name: 'loom-vscode-executing', stages: ['approved', 'git-worktree', 'executing'], checks: ['loom_tasks', 'loom_check_stage'], work: 'agentHost.executing.work' },
  { name: 'loom-vscode-verification', stages: ['converge', 'verification'], checks: ['loom_converge', 'loom_omission_hunt', 'loom_verify_artifacts'], work: 'agentHost.verification.work' },
  {
    name: 'loom-vscode-code-review-request',
    stages: ['code-review-request', 'review-gate'],
    checks: ['loom_check_stage'],
    work: both(REVIEW_STAGE_EN, REVIEW_STAGE_ZH),
    writesFiles: true,
    extra: 'agentHost.reviewGate.work',
  },
  { name: 'loom-vscode-code-review-response', stages: ['code-review-response'], checks: ['loom_check_stage'], work: both(RESPOND_STAGE_EN, RESPOND_STAGE_ZH), writesFiles: true },
  { name: 'loom-vscode-sync', stages: ['synced'], checks: ['loom_get_memory'], work: 'agentHost.sync.work' },
  { name: STATUS_SKILL, stages: [], checks: ['loom_check_stage'], work: 'agentHost.status.work' },
];

// loom's own texts, keyed by stage, transition and precondition (pipelineTexts.ts).
const TEXTS = pipelineTextMessages as Readonly<Record<string, { en: string; zh: string }>>;
const text = (key: string, lang: Language) => (Object.hasOwn(TEXTS, key) ? TEXTS[key][lang] : undefined);
const withPrefix = (prefix: string) => Object.keys(TEXTS).filter((k) => k.startsWith(prefix));

/** What the stages are, in loom's words. */
function what(skill: LoomSkill, lang: Language): string {
  return skill.stages.map((s) => text(`stage.${s}`, lang) ?? s).join(t('agentHost.join.clauses', {}, lang));
}

function title(skill: LoomSkill, lang: Language): string {
  return t('agentHost.skill.title', { stage: skill.stages.length ? skill.stages.join(' / ') : t('agentHost.status.title', {}, lang) }, lang);
}

/** The frontmatter VS Code reads (`name`, `description`), in both languages so a request in either finds the skill. */
export function skillDescription(skill: LoomSkill): string {
  if (!skill.stages.length) return `${t('agentHost.status.description', {}, 'en')} ${t('agentHost.status.description', {}, 'zh')}`;
  return `${t('agentHost.skill.description', { what: what(skill, 'en'), stages: stageList(skill, 'en') }, 'en')} ${t('agentHost.skill.description', { what: what(skill, 'zh'), stages: stageList(skill, 'zh') }, 'zh')}`;
}

function needs(skill: LoomSkill, lang: Language): string[] {
  const before = skill.stages.flatMap((s) => withPrefix(`precondition.${s}.`).map((k) => `- ${text(k, lang)}`));
  const ways = skill.stages.flatMap((s) => withPrefix(`transition.${s}.`).map((k) => `- ${code(k.split('.')[2])}: ${text(k, lang)}`));
  const out = [t('agentHost.heading.needs', {}, lang), '', what(skill, lang) + t('agentHost.join.end', {}, lang)];
  if (before.length) out.push('', t('agentHost.needs.before', {}, lang), ...before);
  if (ways.length) out.push('', t('agentHost.needs.ways', {}, lang), ...ways);
  return out;
}

function work(skill: LoomSkill, lang: Language): string[] {
  const body = typeof skill.work === 'string' ? t(skill.work as 'agentHost.sync.work', {}, lang) : skill.work[lang];
  const out = [t('agentHost.heading.work', {}, lang), ''];
  if (skill.writesFiles) out.push(t('agentHost.work.files', {}, lang), '');
  out.push(body);
  if (skill.stages.length === 0) {
    for (const s of LOOM_SKILLS.filter((x) => x.stages.length)) out.push(t('agentHost.status.row', { stages: stageList(s, lang), skill: s.name }, lang));
  }
  if (skill.extra) out.push('', t(skill.extra as 'agentHost.reviewGate.work', {}, lang));
  return out;
}

/** The body of a skill in one language, without frontmatter. */
/** What every skill and the Loom agent end with, worded once: stop at each gate, and what never to do. */
export function gateAndNever(lang: Language): string[] {
  return [
    t('agentHost.heading.gate', {}, lang),
    '',
    t('agentHost.gate.body', {}, lang),
    '',
    t('agentHost.heading.never', {}, lang),
    '',
    t('agentHost.never.stateFiles', {}, lang),
    t('agentHost.never.skip', {}, lang),
    t('agentHost.never.approve', {}, lang),
  ];
}

export function skillBody(skill: LoomSkill, lang: Language): string {
  const sep = t('agentHost.join.list', {}, lang);
  const lines = [
    title(skill, lang),
    '',
    t('agentHost.skill.language', { file: t('agentHost.skill.otherFile', {}, lang) }, lang),
    '',
    t('agentHost.heading.status', {}, lang),
    '',
    t('agentHost.status.context', {}, lang),
    ...(skill.stages.length ? [t('agentHost.status.only', { stages: stageList(skill, lang), skill: code(STATUS_SKILL) }, lang), '', ...needs(skill, lang)] : []),
    '',
    ...work(skill, lang),
    '',
    // The status skill only reads; the stage skills check their work and move on.
    ...(skill.stages.length
      ? [t('agentHost.heading.check', {}, lang), '', t('agentHost.check.run', { tools: skill.checks.map(code).join(sep) }, lang), t('agentHost.check.advance', {}, lang), '']
      : []),
    ...gateAndNever(lang),
  ];
  return `${lines.join('\n')}\n`;
}

/** `---` YAML frontmatter `---`, as VS Code's prompt-file parser reads it (a line of three dashes on each side). */
export function frontmatter(fields: Readonly<Record<string, unknown>>): string {
  return `---\n${stringify(fields, { lineWidth: 0 })}---\n`;
}

/** Every file of one skill, relative to its folder: SKILL.md (English) and zh.md (Chinese). */
export function skillFiles(skill: LoomSkill): Map<string, string> {
  return new Map([
    ['SKILL.md', `${frontmatter({ name: skill.name, description: skillDescription(skill) })}\n${skillBody(skill, 'en')}`],
    ['zh.md', skillBody(skill, 'zh')],
  ]);
}
