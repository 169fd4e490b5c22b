import type { IntlMessageFormat } from 'intl-messageformat';
import { lazily } from '../lazily';
import { LANGUAGE_TAGS, type Language } from './language';

// The `require` of Node and of esbuild, which bundles the package and runs it on the first call
// (the webviews' tsconfig has no Node types to declare it).
declare const require: (id: 'intl-messageformat') => { IntlMessageFormat: typeof IntlMessageFormat };
// Loaded on the first text formatted, not with the bundle: the extension activates without it (see lazily).
const intlMessageFormat = lazily(() => require('intl-messageformat').IntlMessageFormat);

type Values = Readonly<Record<string, string | number>>;
type Element = { type: number; value?: unknown };

// ignoreTag: loom's texts contain `<stage>` and the like, which are words here, not markup.
const OPTIONS = { ignoreTag: true };

// The parser's element types (@formatjs/icu-messageformat-parser TYPE): literal and plain argument.
const LITERAL = 0;
const ARGUMENT = 1;

/**
 * One text, compiled on its first use. Most texts are words and `{name}`s only: those are joined
 * from the library's own syntax tree (so its quoting rules still decide what is a literal), which
 * costs a fraction of a full format and never starts the Intl machinery (its locale data take
 * tens of milliseconds to load; `status` words thousands of texts and needs none of it). Plurals,
 * selects and anything unusual go through the library, made only when first needed.
 */
class Compiled {
  private library?: IntlMessageFormat;
  /** Literals at even positions, parameter names at odd ones; undefined when the text needs the library. */
  readonly pieces?: readonly string[];
  private readonly ast?: Element[];

  constructor(
    private readonly text: string,
    private readonly language: Language,
  ) {
    // The parser alone: the library's constructor would resolve the locale, which plain texts never use.
    const parse = intlMessageFormat().__parse;
    this.ast = parse ? (parse(text, OPTIONS) as Element[]) : undefined;
    this.pieces = this.ast && piecesOf(this.ast);
  }

  get format(): IntlMessageFormat {
    const Library = intlMessageFormat();
    return (this.library ??= new Library(this.text, LANGUAGE_TAGS[this.language], undefined, OPTIONS));
  }

  getAst(): readonly Element[] {
    return this.ast ?? (this.format.getAst() as Element[]);
  }
}

function piecesOf(ast: readonly Element[]): string[] | undefined {
  const pieces: string[] = [''];
  for (const element of ast) {
    if (typeof element.value !== 'string') return undefined;
    if (element.type === LITERAL) pieces[pieces.length - 1] += element.value;
    else if (element.type === ARGUMENT) pieces.push(element.value, '');
    else return undefined;
  }
  return pieces;
}

// Parsing an ICU text is the costly part; each text is parsed once per process (per language, keyed by the text itself).
const compiled: Readonly<Record<Language, Map<string, Compiled>>> = { en: new Map(), zh: new Map() };

function compile(text: string, language: Language): Compiled {
  const texts = compiled[language];
  let entry = texts.get(text);
  if (entry === undefined) texts.set(text, (entry = new Compiled(text, language)));
  return entry;
}

/** The text with its plain parameters put in, as the library words them; undefined when a value needs the library (it is missing, or not a string or number). */
function joined(pieces: readonly string[], params: Values): string | undefined {
  let out = pieces[0];
  for (let i = 1; i < pieces.length; i += 2) {
    const name = pieces[i];
    if (!(name in params)) return undefined;
    const value: unknown = params[name];
    if (typeof value === 'string' || typeof value === 'number') out += String(value);
    else if (value !== undefined && value !== null && value !== false) return undefined;
    out += pieces[i + 1];
  }
  return out;
}

export function formatText(text: string, language: Language, params: Values): string {
  const entry = compile(text, language);
  const fast = entry.pieces && joined(entry.pieces, params);
  if (fast !== undefined) return fast;
  const out = entry.format.format(params as Record<string, string | number>);
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
