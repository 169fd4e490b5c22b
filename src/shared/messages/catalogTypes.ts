/**
 * One entry of the catalog: the same sentence in both languages, written in ICU MessageFormat
 * (`{stage}` for a parameter, `{count, plural, one {# retry} other {# retries}}` for a count), so
 * plural forms and parameters are the library's business rather than string concatenation.
 */
export interface MessageEntry {
  readonly en: string;
  readonly zh: string;
}

export type MessageTable = Readonly<Record<string, MessageEntry>>;

type Trim<S extends string> = S extends ` ${infer R}` ? Trim<R> : S extends `${infer R} ` ? Trim<R> : S;
type NameOf<S extends string> = Trim<S extends `${infer N},${string}` ? N : S>;
type Identifier<S extends string> = S extends '' ? never : S extends `${string}${' ' | '#' | '{' | '}' | "'"}${string}` ? never : S;

/**
 * The parameter names of an ICU text, read at compile time: every `{name}` or `{name, …}`. The
 * branches of a plural (`one {# retry}`) are not names, so they drop out as non-identifiers.
 */
export type ParamNames<S extends string> = S extends `${string}{${infer Inner}}${infer Rest}` ? Identifier<NameOf<Inner extends `${infer Head}{${string}` ? Head : Inner>> | ParamNames<Rest> : never;

export type ParamValue = string | number;
