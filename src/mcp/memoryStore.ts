import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { userInfo } from 'node:os';
import { z } from 'zod';
import { toJsonText, writeFileAtomic } from '../core/fs/atomicWrite';
import { withRunLock } from '../core/store/runLock';
import { t } from '../core/messages';
import { ToolRefusal } from './results';

export const MEMORY_STORE_FILE = '.loom/memory/store.json';
export const MEMORY_TYPES = ['决策', '踩坑', '偏好', '状态', 'adr'] as const;
/** loom's memory-store keeps the newest 50 entries. */
export const MAX_MEMORY_ENTRIES = 50;

const EntrySchema = z.looseObject({
  id: z.string(),
  type: z.string(),
  content: z.string(),
  author: z.string().optional(),
  tags: z.array(z.string()).default([]),
  context: z.string().nullable().default(null),
  created_at: z.string(),
});
const StoreSchema = z.looseObject({ entries: z.array(EntrySchema).default([]), sessions: z.array(z.unknown()).default([]) });
export type MemoryEntry = z.infer<typeof EntrySchema>;
type MemoryStoreFile = z.infer<typeof StoreSchema>;

/** The store, or an empty one when there is none; a store that does not parse is reported and never overwritten. */
export function readMemoryStore(root: string): MemoryStoreFile {
  let text: string;
  try {
    text = readFileSync(join(root, MEMORY_STORE_FILE), 'utf8');
  } catch {
    return { entries: [], sessions: [] };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ToolRefusal('corrupt-file', t('mcp.memory.corrupt', { file: MEMORY_STORE_FILE, detail: (e as Error).message }), t('mcp.hint.fixFile'), { file: MEMORY_STORE_FILE });
  }
  const parsed = StoreSchema.safeParse(json);
  if (!parsed.success)
    throw new ToolRefusal('corrupt-file', t('mcp.memory.notAStore', { file: MEMORY_STORE_FILE, detail: z.prettifyError(parsed.error) }), t('mcp.hint.fixFile'), { file: MEMORY_STORE_FILE });
  return parsed.data;
}

/**
 * Adds one entry, newest first, keeping at most 50, written atomically. The store's folder takes
 * the same run lock as a spec, so two agents adding at once both land.
 */
export function addMemoryEntry(root: string, entry: Pick<MemoryEntry, 'type' | 'content' | 'context'>, now: string, waitMs: number): MemoryEntry {
  const dir = join(root, '.loom/memory');
  return withRunLock(
    { dir, specDir: '.loom/memory' },
    () => {
      const store = readMemoryStore(root);
      const added: MemoryEntry = { id: randomBytes(4).toString('hex'), type: entry.type, content: entry.content, author: authorName(), tags: [], context: entry.context ?? null, created_at: now };
      writeFileAtomic(join(root, MEMORY_STORE_FILE), toJsonText({ ...store, entries: [added, ...store.entries].slice(0, MAX_MEMORY_ENTRIES) }));
      return added;
    },
    { waitMs },
  );
}

function authorName(): string {
  try {
    return userInfo().username;
  } catch {
    return 'unknown';
  }
}
