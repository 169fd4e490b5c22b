import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IntlMessageFormat } from 'intl-messageformat';
import { CATALOG, LANGUAGES, type MessageKey } from '../../../src/core/messages';
import { formatText, parameterNamesOf } from '../../../src/core/messages/format';

const LOCALES = { en: 'en', zh: 'zh-CN' } as const;

/** What the library itself makes of a text, the way formatText called it before texts of plain parameters were joined directly. */
function library(text: string, language: 'en' | 'zh', params: Record<string, string | number>): string {
  const out = new IntlMessageFormat(text, LOCALES[language], undefined, { ignoreTag: true }).format(params);
  return Array.isArray(out) ? out.join('') : String(out);
}

test('every text of the catalog reads as the library words it, with strings, numbers, zero and empty values', () => {
  for (const key of Object.keys(CATALOG()) as MessageKey[]) {
    for (const language of LANGUAGES) {
      const text = CATALOG()[key][language];
      const names = parameterNamesOf(text, language);
      for (const value of ['T3', 1, 0, 7, '', "it's {literal} <b>"]) {
        const params = Object.fromEntries(names.map((n) => [n, value]));
        assert.equal(formatText(text, language, params), library(text, language, params), `${key} (${language}) with ${JSON.stringify(value)}`);
      }
    }
  }
});

test("ICU quoting is the library's: quoted braces and doubled apostrophes are words", () => {
  const text = "'{name}' is {name}''s, {count, plural, one {# task} other {# tasks}}";
  assert.equal(formatText(text, 'en', { name: 'T1', count: 2 }), library(text, 'en', { name: 'T1', count: 2 }));
  assert.equal(formatText("{task}'s owner is '{'{owner}'}'", 'en', { task: 'T1', owner: 'me' }), "T1's owner is {me}");
});

test('a missing parameter is refused as the library refuses it', () => {
  assert.throws(() => formatText('finish {task}', 'en', {}), /task/);
});
