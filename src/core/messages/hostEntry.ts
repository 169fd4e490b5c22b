import type { MessageTable } from './catalogTypes';

/**
 * What dist/extension.js shows itself: when the extension's bundle cannot start, its catalog and
 * formatter cannot either, so this table is read without them (src/extensionEntry.ts).
 */
export const hostEntryMessages = {
  'host.entry.couldNotStart': { en: 'Loom could not start: {message}', zh: 'Loom 无法启动：{message}' },
} as const satisfies MessageTable;
