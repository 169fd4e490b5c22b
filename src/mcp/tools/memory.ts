import { z } from 'zod';
import { addMemoryEntry, MEMORY_TYPES, readMemoryStore } from '../../core/port/tools';
import { MEMORY_STORE_FILE } from '../../core/port/files';
import { checkProjectRoot } from '../specAccess';
import { defineTool } from '../tool';

export const getMemory = defineTool({
  name: 'loom_get_memory',
  group: 'memory',
  description: `Project memory entries from ${MEMORY_STORE_FILE}, newest first: decisions (决策), pitfalls (踩坑), preferences (偏好), status (状态), ADRs (adr).`,
  input: z.object({
    type: z.enum(MEMORY_TYPES).optional().describe('Only entries of this type: 决策, 踩坑, 偏好, 状态, adr'),
    limit: z.number().int().positive().optional().describe('At most this many entries (default 10)'),
    project_root: z.string().optional().describe('Project root (must be the repository this server serves)'),
  }),
  writes: [],
  run: (args, ctx) => {
    checkProjectRoot(ctx, args.project_root);
    const store = readMemoryStore(ctx.session.root);
    const matching = store.entries.filter((e) => args.type === undefined || e.type === args.type);
    const entries = matching.slice(0, args.limit ?? 10);
    return { entries, total: matching.length, returned: entries.length, truncated: matching.length > entries.length };
  },
});

export const addMemory = defineTool({
  name: 'loom_add_memory',
  group: 'memory',
  description: `Record one memory entry in ${MEMORY_STORE_FILE} (newest first, at most 50 kept).`,
  input: z.object({
    type: z.enum(MEMORY_TYPES).describe('决策, 踩坑, 偏好, 状态 or adr'),
    content: z.string().trim().min(1).describe('One line'),
    context: z.string().optional().describe('Background or reason (for an ADR)'),
    project_root: z.string().optional().describe('Project root (must be the repository this server serves)'),
  }),
  writes: [MEMORY_STORE_FILE],
  run: (args, ctx) => {
    checkProjectRoot(ctx, args.project_root);
    const entry = addMemoryEntry(ctx.session.root, { type: args.type, content: args.content, context: args.context ?? null }, ctx.now(), ctx.lockWaitMs);
    return { ok: true, entry, path: MEMORY_STORE_FILE };
  },
});
