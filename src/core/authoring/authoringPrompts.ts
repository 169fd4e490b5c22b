import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ChatMessage } from '../executing/dispatch/chatModel';
import { readOptionalText } from '../fs/readOptional';
import { loadTemplateSet, renderTemplate, type PromptLanguage } from '../executing/dispatch/prompts/promptTemplates';
import { clip } from '../executing/dispatch/specSections';
import { BEHAVIOR_CATEGORIES, TASK_FILE_PATTERN } from '../files/vocabulary';
import { byTaskNumber } from '../specdir/loadSpec';
import { renderDraft, type Draft } from './draftBlocks';
import { BRAINSTORM_EN, EXPAND_EN, PLAN_EN, REPAIR_EN, RESPOND_EN, REVIEW_EN } from './prompts/authoringEn';
import { BRAINSTORM_ZH, EXPAND_ZH, PLAN_ZH, REPAIR_ZH, RESPOND_ZH, REVIEW_ZH } from './prompts/authoringZh';
import type { AuthoringCommand, AuthoringCommandName } from './stageCommands';
import { t } from '../messages';

/** Named like the executing stage's templates; a repository overrides them in `.loom/prompts/`. */
export const AUTHORING_PROMPT_NAMES = ['brainstorm-prompt', 'expand-prompt', 'plan-prompt', 'review-prompt', 'respond-prompt', 'authoring-repair-prompt'] as const;
export type AuthoringPromptName = (typeof AUTHORING_PROMPT_NAMES)[number];

const BUNDLED: Readonly<Record<PromptLanguage, Readonly<Record<AuthoringPromptName, string>>>> = {
  en: { 'brainstorm-prompt': BRAINSTORM_EN, 'expand-prompt': EXPAND_EN, 'plan-prompt': PLAN_EN, 'review-prompt': REVIEW_EN, 'respond-prompt': RESPOND_EN, 'authoring-repair-prompt': REPAIR_EN },
  zh: { 'brainstorm-prompt': BRAINSTORM_ZH, 'expand-prompt': EXPAND_ZH, 'plan-prompt': PLAN_ZH, 'review-prompt': REVIEW_ZH, 'respond-prompt': RESPOND_ZH, 'authoring-repair-prompt': REPAIR_ZH },
};

export const promptNameOf = (command: AuthoringCommandName): AuthoringPromptName => `${command}-prompt`;

export interface AuthoringTemplates {
  templates: Readonly<Record<AuthoringPromptName, string>>;
  language: PromptLanguage;
  /** The repository's override files that replaced a bundled template. */
  overridden: readonly string[];
}

export function loadAuthoringTemplates(repoRoot: string | undefined, language: PromptLanguage): AuthoringTemplates {
  const { templates, overridden } = loadTemplateSet(repoRoot, language, AUTHORING_PROMPT_NAMES, BUNDLED[language]);
  return { templates, language, overridden };
}

/** What one turn's prompt is built from. */
export interface AuthoringContext {
  command: AuthoringCommand<AuthoringCommandName>;
  templates: AuthoringTemplates;
  /** Absolute spec directory, and its repository-relative name. */
  dir: string;
  specDir: string;
  stage: string;
  request: string;
  /** Drafts proposed earlier and not written. */
  drafts: readonly Draft[];
  /** The feature's diff, for /review and /respond. */
  diff?: string;
  /** Earlier turns of this conversation, oldest first. */
  history: readonly ChatMessage[];
}

const LIMITS = { file: 16000, diff: 60000, history: 12 };

const none = (lang: PromptLanguage) => t('prompt.none', {}, lang);
const missing = (lang: PromptLanguage) => t('prompt.notYetWritten', {}, lang);

/** The spec's current files the command reads, each under a heading; folders list their task files. */
export function renderSpecFiles(dir: string, reads: readonly string[], lang: PromptLanguage): string {
  const out: string[] = [];
  for (const file of reads) {
    if (file.endsWith('/')) {
      let names: string[];
      try {
        names = readdirSync(join(dir, file))
          .filter((n) => TASK_FILE_PATTERN.test(n))
          .sort((a, b) => byTaskNumber(a.slice(0, -3), b.slice(0, -3)));
      } catch {
        names = [];
      }
      if (!names.length) out.push(`### ${file}\n${missing(lang)}`);
      for (const n of names) out.push(`### ${file}${n}\n${clip(readOptionalText(join(dir, file, n)) ?? '', LIMITS.file)}`);
      continue;
    }
    const text = readOptionalText(join(dir, file));
    out.push(`### ${file}\n${text === undefined ? missing(lang) : clip(text, LIMITS.file)}`);
  }
  return out.join('\n\n');
}

/**
 * The conversation sent to the model: earlier turns (the most recent ones), then this turn's
 * instructions with the spec's files, the pending drafts and what the user said.
 */
export function buildAuthoringMessages(c: AuthoringContext): ChatMessage[] {
  const lang = c.templates.language;
  const values = new Map<string, string>([
    ['spec_dir', c.specDir],
    ['stage', c.stage],
    ['request', c.request.trim() || none(lang)],
    ['files', renderSpecFiles(c.dir, c.command.reads, lang)],
    ['drafts', c.drafts.length ? c.drafts.map(renderDraft).join('\n') : none(lang)],
    ['writes', c.command.writesText],
    ['categories', BEHAVIOR_CATEGORIES.join(', ')],
    ['diff', c.diff?.trim() ? clip(c.diff, LIMITS.diff) : none(lang)],
  ]);
  // The format rules sit inside the templates, so an override can change them; they name {{writes}}.
  const text = renderTemplate(c.templates.templates[promptNameOf(c.command.name)], values);
  return [...c.history.slice(-LIMITS.history), { role: 'user', content: text }];
}

/** The follow-up that sends the checks' problems back to the model. */
export function buildRepairMessage(templates: AuthoringTemplates, problems: readonly string[]): ChatMessage {
  const text = renderTemplate(templates.templates['authoring-repair-prompt'], new Map([['problems', problems.map((p) => `- ${p}`).join('\n')]]));
  return { role: 'user', content: text };
}
