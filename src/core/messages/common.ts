import type { MessageTable } from './catalogTypes';

/** Words many areas use: counts that need plural forms. */
export const commonMessages = {
  'count.retries': { en: '{count, plural, one {# retry} other {# retries}}', zh: '{count} 次重试' },
  'count.tasks': { en: '{count, plural, one {# task} other {# tasks}}', zh: '{count} 个任务' },
  'count.specs': { en: '{count, plural, one {# spec} other {# specs}}', zh: '{count} 个规格' },
  'count.files': { en: '{count, plural, one {# file} other {# files}}', zh: '{count} 个文件' },
} as const satisfies MessageTable;
