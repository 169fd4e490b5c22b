import { z } from 'zod';
import { GROUP_GUIDE } from '../groups';
import { t } from '../../core/port/messages';
import { ToolRefusal } from '../results';
import { TOOL_GROUPS } from '../session';
import { checkProjectRoot } from '../specAccess';
import { defineTool } from '../tool';

export const listCapabilities = defineTool({
  name: 'loom_list_capabilities',
  group: 'meta',
  description:
    'START HERE. The catalog of Loom tool groups (pipeline, session, context, memory, meta): what each is for and its tools. Then load only the group the task needs with loom_load_tool_group.',
  input: z.object({ project_root: z.string().optional().describe('Project root (must be the repository this server serves)') }),
  writes: [],
  run: (args, ctx) => {
    checkProjectRoot(ctx, args.project_root);
    return {
      hint: t('mcp.meta.pickGroup'),
      lazy_tools: ctx.session.lazyTools,
      groups: TOOL_GROUPS.map((group) => ({
        group,
        ...GROUP_GUIDE.get(group),
        tools: ctx.tools.filter((t) => t.group === group).map((t) => t.name),
        loaded: ctx.session.isListed(group),
      })),
    };
  },
});

export const loadToolGroup = defineTool({
  name: 'loom_load_tool_group',
  group: 'meta',
  description: 'Load a group of tools into this session (after loom_list_capabilities): context, pipeline, memory or session. The tool list changes (notifications/tools/list_changed).',
  input: z.object({ group: z.string().describe('Group name: context, pipeline, memory, session') }),
  writes: [],
  run: (args, ctx) => {
    const group = TOOL_GROUPS.find((g) => g === args.group);
    if (!group) throw new ToolRefusal('unknown-group', t('mcp.meta.unknownGroup', { group: args.group, groups: TOOL_GROUPS.join(', ') }), t('mcp.meta.unknownGroupHint'));
    ctx.session.loadedGroups.add(group);
    return { ok: true, group, loaded_tools: ctx.tools.filter((t) => t.group === group).map((t) => t.name) };
  },
});

export const telemetry = defineTool({
  name: 'loom_telemetry',
  group: 'meta',
  description: 'Call counts per tool for this session. Only when the server runs with LOOM_TELEMETRY=1.',
  input: z.object({}),
  writes: [],
  run: (_args, ctx) => {
    if (!ctx.session.telemetry) throw new ToolRefusal('telemetry-off', t('mcp.meta.telemetryOff'), t('mcp.meta.telemetryOffHint'));
    const tools = Object.fromEntries([...ctx.session.calls].map(([name, c]) => [name, { calls: c.count, refused: c.errors }]));
    return { enabled: true, total_calls: [...ctx.session.calls.values()].reduce((n, c) => n + c.count, 0), tools };
  },
});
