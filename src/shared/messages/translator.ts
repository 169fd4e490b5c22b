import type { MessageEntry, ParamNames, ParamValue } from './catalogTypes';
import { formatText } from './format';
import { displayLanguage, type Language } from './language';

type Params<T extends Readonly<Record<string, MessageEntry>>, K extends keyof T> = { readonly [P in ParamNames<T[K]['en']>]: ParamValue };

/** A key's arguments: none for a text without parameters, else every parameter its English text names. */
export type ArgsOf<T extends Readonly<Record<string, MessageEntry>>, K extends keyof T> = [ParamNames<T[K]['en']>] extends [never]
  ? [params?: Record<string, never>, language?: Language]
  : [params: Params<T, K>, language?: Language];

/**
 * `t(key, params)` over one table, with the parameters checked by the compiler. The core's catalog
 * and the webviews' labels use the same ICU texts and formatter; the webviews carry only theirs.
 */
export function translator<T extends Readonly<Record<string, MessageEntry>>>(table: T) {
  return <K extends keyof T & string>(key: K, ...[params, language]: ArgsOf<T, K>): string => {
    const lang = language ?? displayLanguage();
    return formatText(table[key][lang], lang, (params ?? {}) as Record<string, ParamValue>);
  };
}
