/** The two languages loom's users read: loom's own messages are Chinese, the extension's default is English. */
export type Language = 'en' | 'zh';

export const LANGUAGES: readonly Language[] = ['en', 'zh'];

/** Each language's BCP 47 tag, for Intl's plural rules and a page's `lang` attribute. */
export const LANGUAGE_TAGS: Readonly<Record<Language, string>> = { en: 'en', zh: 'zh-CN' };

/** A locale tag (`zh-cn`, `zh_CN.UTF-8`, `en-US`) to the language Loom shows; anything not Chinese reads English. */
export function languageOfLocale(locale: string | undefined): Language {
  return locale?.trim().toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

/**
 * The terminal's language as POSIX resolves it: `LC_ALL` overrides `LC_MESSAGES`, which
 * overrides `LANG`. Empty values are skipped, as the C library does.
 */
export function languageOfEnvironment(env: Readonly<Record<string, string | undefined>>): Language {
  const locale = [env.LC_ALL, env.LC_MESSAGES, env.LANG].find((v) => v !== undefined && v.trim() !== '');
  return languageOfLocale(locale);
}

let current: Language = 'en';

/**
 * The language of what the user reads in this process. The host sets it once from
 * `vscode.env.language`, the CLI from `--lang` or the environment; the core reads it when it
 * words a sentence, so no function has to thread the language through every call.
 */
export function setDisplayLanguage(language: Language): void {
  current = language;
}

export function displayLanguage(): Language {
  return current;
}
