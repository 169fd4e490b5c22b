import { join } from 'node:path';
import { readOptionalText } from '../../../fs/readOptional';
import { IMPLEMENTER_EN, IMPLEMENTER_FIX_EN, REPAIR_STATUS_EN, REPAIR_VERDICT_EN, REVIEWER_EN, TEST_REPORTER_EN } from './templatesEn';
import { IMPLEMENTER_FIX_ZH, IMPLEMENTER_ZH, REPAIR_STATUS_ZH, REPAIR_VERDICT_ZH, REVIEWER_ZH, TEST_REPORTER_ZH } from './templatesZh';

export type PromptLanguage = 'en' | 'zh';

/** Named after loom's own prompt files (implementer-prompt.md, combined-reviewer-prompt.md, ...). */
export const PROMPT_NAMES = ['implementer-prompt', 'implementer-fix-prompt', 'combined-reviewer-prompt', 'test-reporter-prompt', 'repair-status-prompt', 'repair-verdict-prompt'] as const;
export type PromptName = (typeof PROMPT_NAMES)[number];

export type PromptTemplates = Readonly<Record<PromptName, string>> & { readonly language: PromptLanguage; readonly overridden: readonly string[] };

const BUNDLED: Readonly<Record<PromptLanguage, Readonly<Record<PromptName, string>>>> = {
  en: {
    'implementer-prompt': IMPLEMENTER_EN,
    'implementer-fix-prompt': IMPLEMENTER_FIX_EN,
    'combined-reviewer-prompt': REVIEWER_EN,
    'test-reporter-prompt': TEST_REPORTER_EN,
    'repair-status-prompt': REPAIR_STATUS_EN,
    'repair-verdict-prompt': REPAIR_VERDICT_EN,
  },
  zh: {
    'implementer-prompt': IMPLEMENTER_ZH,
    'implementer-fix-prompt': IMPLEMENTER_FIX_ZH,
    'combined-reviewer-prompt': REVIEWER_ZH,
    'test-reporter-prompt': TEST_REPORTER_ZH,
    'repair-status-prompt': REPAIR_STATUS_ZH,
    'repair-verdict-prompt': REPAIR_VERDICT_ZH,
  },
};

/** Where a repository keeps its own templates. */
export const PROMPT_OVERRIDE_DIR = '.loom/prompts';

/**
 * The bundled templates in the spec's language, each replaced by the repository's own file when
 * it has one: `.loom/prompts/<name>.<lang>.md` first, then `.loom/prompts/<name>.md`.
 */
export function loadPromptTemplates(repoRoot: string | undefined, language: PromptLanguage): PromptTemplates {
  const { templates, overridden } = loadTemplateSet(repoRoot, language, PROMPT_NAMES, BUNDLED[language]);
  return Object.freeze({ ...templates, language, overridden });
}

/**
 * Any named set of bundled templates with the repository's overrides applied (the executing
 * stage's and the chat participant's use the same folder and naming), and the override files used.
 */
export function loadTemplateSet<N extends string>(
  repoRoot: string | undefined,
  language: PromptLanguage,
  names: readonly N[],
  bundled: Readonly<Record<N, string>>,
): { templates: Record<N, string>; overridden: string[] } {
  const templates = { ...bundled } as Record<N, string>;
  const overridden: string[] = [];
  if (repoRoot) {
    for (const name of names) {
      for (const file of [`${name}.${language}.md`, `${name}.md`]) {
        const text = readOptionalText(join(repoRoot, PROMPT_OVERRIDE_DIR, file));
        if (text !== undefined && text.trim()) {
          templates[name] = text;
          overridden.push(`${PROMPT_OVERRIDE_DIR}/${file}`);
          break;
        }
      }
    }
  }
  return { templates, overridden };
}

/**
 * Fills `{{name}}` placeholders in one pass, so a value that itself contains `{{x}}` (a spec
 * quoting a template) is never expanded. Unknown placeholders become empty.
 */
export function renderTemplate(template: string, values: ReadonlyMap<string, string>): string {
  return template.replace(/\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}/gi, (_m, name: string) => values.get(name) ?? '');
}

/** Chinese when CJK characters outweigh Latin words (a CJK character carries about a word). */
export function detectLanguage(text: string): PromptLanguage {
  const cjk = (text.match(/[\u3400-\u4dbf\u4e00-\u9fff]/g) ?? []).length;
  const words = (text.match(/[A-Za-z]{2,}/g) ?? []).length;
  return cjk >= 20 && cjk > words ? 'zh' : 'en';
}
