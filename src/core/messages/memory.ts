import type { MessageTable } from './catalogTypes';

/** loom's structured memory (`.loom/memory/store.json`): its store and the entries a feature leaves there when it is synced. */
export const memoryMessages = {
  'memory.corrupt': { en: '{file} is corrupt ({detail}); it was left untouched', zh: '{file} 已损坏（{detail}）；未改动该文件' },
  'memory.notAStore': { en: '{file} is not a memory store: {detail}; it was left untouched', zh: '{file} 不是有效的记忆存储：{detail}；未改动该文件' },
} as const satisfies MessageTable;
