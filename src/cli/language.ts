import { languageOfEnvironment, LANGUAGES, type Language } from '../core/port/messages';

/**
 * The language the CLI answers in: `--lang en|zh`, else the terminal's locale (LC_ALL, then
 * LC_MESSAGES, then LANG). Read before the arguments are parsed, so that a usage error is
 * already worded in it; a `--lang` the CLI does not know is reported by the parser.
 */
export function cliLanguage(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): Language {
  for (let i = 0; i < argv.length; i++) {
    const value = argv[i] === '--lang' ? argv[i + 1] : argv[i].startsWith('--lang=') ? argv[i].slice('--lang='.length) : undefined;
    if (value !== undefined && (LANGUAGES as readonly string[]).includes(value)) return value as Language;
  }
  return languageOfEnvironment(env);
}

export const isLanguage = (value: string): value is Language => (LANGUAGES as readonly string[]).includes(value);
