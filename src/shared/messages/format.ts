import { IntlMessageFormat } from 'intl-messageformat';
import type { Language } from './language';

const LOCALES: Readonly<Record<Language, string>> = { en: 'en', zh: 'zh-CN' };

// Parsing an ICU text is the costly part; each text is parsed once per process.
const compiled = new Map<string, IntlMessageFormat>();

function compile(text: string, language: Language): IntlMessageFormat {
  const cacheKey = `${language}\u0000${text}`;
  let format = compiled.get(cacheKey);
  if (format === undefined) {
    // ignoreTag: loom's texts contain `<stage>` and the like, which are words here, not markup.
    format = new IntlMessageFormat(text, LOCALES[language], undefined, { ignoreTag: true });
    compiled.set(cacheKey, format);
  }
  return format;
}

export function formatText(text: string, language: Language, params: Readonly<Record<string, string | number>>): string {
  const out = compile(text, language).format(params as Record<string, string | number>);
  return Array.isArray(out) ? out.join('') : String(out);
}

/** The names a text uses, from the library's own syntax tree (for the catalog's consistency test). */
export function parameterNamesOf(text: string, language: Language): string[] {
  const names = new Set<string>();
  const walk = (elements: readonly unknown[]): void => {
    for (const element of elements as ReadonlyArray<{ value?: unknown; options?: Record<string, { value: unknown[] }> }>) {
      if (typeof element.value === 'string' && 'type' in element && (element as { type: number }).type !== 0) names.add(element.value);
      if (element.options) for (const option of Object.values(element.options)) walk(option.value);
    }
  };
  walk(compile(text, language).getAst());
  return [...names].sort();
}
