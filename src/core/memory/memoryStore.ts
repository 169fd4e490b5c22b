import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { userInfo } from 'node:os';
import type { z } from 'zod';
import { lazySchema } from '../../shared/lazySchema';
import { describePath, schemaProblems } from '../diagnostics/zodIssues';
import { CorruptArtifactError } from '../errors';
import { toJsonText, writeFileAtomic } from '../fs/atomicWrite';
import { withRunLock } from '../store/runLock';
import { t } from '../messages';

export const MEMORY_STORE_FILE = '.loom/memory/store.json';
export const MEMORY_TYPES = ['决策', '踩坑', '偏好', '状态', 'adr'] as const;
/** loom's memory-store keeps the newest 50 entries. */
export const MAX_MEMORY_ENTRIES = 50;

const entrySchema = (z: typeof import('zod').z) =>
  z.looseObject({
    id: z.string(),
    type: z.string(),
    content: z.string(),
    author: z.string().optional(),
    tags: z.array(z.string()).default([]),
    context: z.string().nullable().default(null),
    created_at: z.string(),
  });
// Built on first use: zod loads with the first read of the store, not with the extension.
const StoreSchema = lazySchema((z) => z.looseObject({ entries: z.array(entrySchema(z)).default([]), sessions: z.array(z.unknown()).default([]) }));
export type MemoryEntry = z.infer<ReturnType<typeof entrySchema>>;
type MemoryStoreFile = z.infer<ReturnType<typeof StoreSchema>>;

/** What one new entry says: loom_add_memory's arguments, and the tags loom's `memory add --tags` records. */
export type NewMemoryEntry = Pick<MemoryEntry, 'type' | 'content' | 'context'> & { tags?: string[] };

/**
 * The store of the project at `root` (the repository, or a feature worktree), or an empty one
 * when there is none; a store that does not parse is reported (CorruptArtifactError, naming
 * the file) and never overwritten.
 */
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
    throw new CorruptArtifactError(t('memory.corrupt', { file: MEMORY_STORE_FILE, detail: (e as Error).message }), MEMORY_STORE_FILE);
  }
  const parsed = StoreSchema().safeParse(json);
  if (!parsed.success)
    throw new CorruptArtifactError(
      t('memory.notAStore', {
        file: MEMORY_STORE_FILE,
        detail: schemaProblems(parsed.error.issues)
          .map((p) => `${describePath(p.path)}: ${p.message}`)
          .join('; '),
      }),
      MEMORY_STORE_FILE,
    );
  return parsed.data;
}

/**
 * Adds entries, newest first, keeping at most 50, written atomically in one write: the one
 * writer of loom's memory, for `loom_add_memory` and for a feature's sync alike. The store's
 * folder takes the same run lock as a spec, so two agents adding at once both land. `skip`
 * leaves out an entry the store already holds (a sync resumed after a reload adds nothing twice).
 */
export function addMemoryEntries(
  root: string,
  entries: readonly NewMemoryEntry[],
  now: string,
  waitMs: number,
  skip?: (entry: NewMemoryEntry, store: readonly MemoryEntry[]) => boolean,
): MemoryEntry[] {
  const file = join(root, MEMORY_STORE_FILE);
  mkdirSync(dirname(file), { recursive: true });
  return withRunLock(
    { dir: dirname(file), specDir: dirname(MEMORY_STORE_FILE) },
    () => {
      const store = readMemoryStore(root);
      const added = entries
        .filter((e) => !skip?.(e, store.entries))
        .map((e): MemoryEntry => ({
          id: randomBytes(4).toString('hex'),
          type: e.type,
          content: e.content,
          author: authorName(),
          tags: [...(e.tags ?? [])],
          context: e.context ?? null,
          created_at: now,
        }));
      if (added.length) writeFileAtomic(file, toJsonText({ ...store, entries: [...added, ...store.entries].slice(0, MAX_MEMORY_ENTRIES) }));
      return added;
    },
    { waitMs },
  );
}

/** `loom_add_memory`: one entry. */
export function addMemoryEntry(root: string, entry: NewMemoryEntry, now: string, waitMs: number): MemoryEntry {
  return addMemoryEntries(root, [entry], now, waitMs)[0];
}

function authorName(): string {
  try {
    return userInfo().username;
  } catch {
    return 'unknown';
  }
}
