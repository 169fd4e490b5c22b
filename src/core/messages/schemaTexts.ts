import { formatText } from './format';
import { displayLanguage, type Language } from './language';
import { pipelineTextMessages } from './pipelineTexts';

const TABLE: Readonly<Record<string, { en: string; zh: string }>> = pipelineTextMessages;

// loom's Chinese text → its key, for texts that reach a view without their stage (a manual check).
const KEY_OF_TEXT = new Map<string, string>();
for (const [key, entry] of Object.entries(TABLE)) if (!KEY_OF_TEXT.has(entry.zh)) KEY_OF_TEXT.set(entry.zh, key);

/**
 * `text` in `language` when it is loom's own wording of `key`; a text the schema no longer has
 * word for word (a team's own description) is the team's and is shown as written.
 */
function localized(key: string | undefined, text: string | undefined, language: Language): string | undefined {
  if (text === undefined || key === undefined || !Object.hasOwn(TABLE, key)) return text;
  const entry = TABLE[key];
  if (entry.zh !== text.trim()) return text;
  return formatText(entry[language], language, {});
}

/** A stage's description from pipeline.schema.json, in the display language. */
export const stageDescription = (stage: string, text: string | undefined, language: Language = displayLanguage()) => localized(`stage.${stage}`, text, language);

/** A transition's description from pipeline.schema.json, in the display language. */
export const transitionDescription = (from: string, to: string, text: string | undefined, language: Language = displayLanguage()) => localized(`transition.${from}.${to}`, text, language);

/** Any text of loom's schema (a precondition stated in words, shown as a check by hand), in the display language. */
export const schemaText = (text: string, language: Language = displayLanguage()): string => localized(KEY_OF_TEXT.get(text.trim()), text, language) ?? text;
