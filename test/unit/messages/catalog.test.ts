import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CATALOG, LANGUAGES, languageOfEnvironment, languageOfLocale, message, render, setDisplayLanguage, t, type MessageKey } from '../../../src/core/messages';
import { formatText, parameterNamesOf } from '../../../src/core/messages/format';
import { TABLES } from '../../../src/core/messages/catalog';

test('every key has an English and a Chinese text with the same parameters', () => {
  const keys = Object.keys(CATALOG()) as MessageKey[];
  assert.ok(keys.length > 0);
  for (const key of keys) {
    const entry = CATALOG()[key];
    for (const language of LANGUAGES) assert.ok(entry[language].trim() !== '', `${key} has no ${language} text`);
    assert.deepEqual(parameterNamesOf(entry.zh, 'zh'), parameterNamesOf(entry.en, 'en'), `${key}: the two texts take different parameters`);
  }
});

test('a key lives in exactly one table, and t() words each one from its table', () => {
  const seen = new Map<string, number>();
  TABLES.forEach((table, i) => {
    for (const key of Object.keys(table)) {
      assert.ok(!seen.has(key), `${key} is in tables ${seen.get(key)} and ${i}`);
      seen.set(key, i);
    }
  });
  for (const [key, i] of seen) {
    const entry = (TABLES[i] as Record<string, { en: string; zh: string }>)[key];
    const params = Object.fromEntries(parameterNamesOf(entry.en, 'en').map((p) => [p, 2]));
    assert.equal(t(key as MessageKey, params as never, 'zh'), formatText(entry.zh, 'zh', params), key);
  }
});

test('plural forms: one retry, three retries', () => {
  assert.equal(t('count.retries', { count: 1 }, 'en'), '1 retry');
  assert.equal(t('count.retries', { count: 3 }, 'en'), '3 retries');
  assert.equal(t('count.retries', { count: 3 }, 'zh'), '3 次重试');
});

test('the display language is the default, and a message renders in either language', () => {
  setDisplayLanguage('zh');
  try {
    assert.equal(t('count.tasks', { count: 2 }), '2 个任务');
    const m = message('count.tasks', { count: 1 });
    assert.equal(render(m, 'en'), '1 task');
    assert.equal(render(m), '1 个任务');
  } finally {
    setDisplayLanguage('en');
  }
});

test('languages of locales and of the environment (LC_ALL over LC_MESSAGES over LANG)', () => {
  assert.equal(languageOfLocale('zh-cn'), 'zh');
  assert.equal(languageOfLocale('zh_CN.UTF-8'), 'zh');
  assert.equal(languageOfLocale('zh-TW'), 'zh');
  assert.equal(languageOfLocale('de'), 'en');
  assert.equal(languageOfLocale('en-US'), 'en');
  assert.equal(languageOfLocale(undefined), 'en');
  assert.equal(languageOfEnvironment({ LANG: 'zh_CN.UTF-8' }), 'zh');
  assert.equal(languageOfEnvironment({ LC_ALL: 'en_US.UTF-8', LANG: 'zh_CN.UTF-8' }), 'en');
  assert.equal(languageOfEnvironment({ LC_ALL: '', LC_MESSAGES: 'zh_TW', LANG: 'C' }), 'zh');
  assert.equal(languageOfEnvironment({}), 'en');
});
