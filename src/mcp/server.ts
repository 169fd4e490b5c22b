import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { t } from '../core/port/messages';
import { LOOM_TOOLS } from './catalog';
import { elicitationConfirmation } from './confirmation';
import { refusalResult, resultOfError, type ToolResult } from './results';
import { McpSession } from './session';
import type { LoomTool, ToolContext } from './tool';

export const SERVER_NAME = 'loom-vscode';

export interface LoomMcpServerOptions {
  root: string;
  version: string;
  /** loom's lazy tool groups; `LOOM_LAZY_TOOLS=0` lists every tool at once. */
  lazyTools: boolean;
  telemetry: boolean;
  /** How long a write waits for another holder of the spec's run lock (loom's writers hold it for milliseconds). */
  lockWaitMs: number;
  tools?: readonly LoomTool[];
}

const listing = (tool: LoomTool): Tool => ({
  name: tool.name,
  description: tool.description,
  inputSchema: z.toJSONSchema(tool.input, { io: 'input' }) as Tool['inputSchema'],
  annotations: { readOnlyHint: tool.writes.length === 0, destructiveHint: false, idempotentHint: tool.writes.length === 0, openWorldHint: false },
});

const asContent = (result: ToolResult): CallToolResult => ({ content: [{ type: 'text', text: JSON.stringify(result, null, 2) }] });

/**
 * loom's MCP tools on the SDK's low-level Server: the listing follows the session's loaded groups
 * (loom lists only `meta` until a group is loaded, and still runs any tool called by name, as
 * its tools/call does), and every call answers a result object, never a crash.
 */
export function createLoomMcpServer(options: LoomMcpServerOptions): { server: Server; session: McpSession } {
  const tools = options.tools ?? LOOM_TOOLS;
  const session = new McpSession(options.root, options.lazyTools, options.telemetry);
  const server = new Server(
    { name: SERVER_NAME, version: options.version },
    {
      capabilities: { tools: { listChanged: options.lazyTools } },
      instructions: 'Loom’s pipeline for this repository. Call loom_list_capabilities first. An interactive stage or an approval gate moves only with the user’s confirmation.',
    },
  );
  const ctx: ToolContext = { session, confirm: elicitationConfirmation(server), tools, now: () => new Date().toISOString(), lockWaitMs: options.lockWaitMs };
  const byName = new Map(tools.map((t) => [t.name, t]));

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.filter((t) => session.isListed(t.group)).map(listing) }));

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    const parsed = tool.input.safeParse(request.params.arguments ?? {});
    if (!parsed.success) {
      session.record(tool.name, true);
      return asContent(refusalResult('invalid-arguments', t('mcp.arguments.invalid', { tool: tool.name, detail: z.prettifyError(parsed.error) }), t('mcp.arguments.invalidHint')));
    }
    let result: ToolResult;
    try {
      result = await tool.run(parsed.data, ctx);
    } catch (e) {
      result = resultOfError(e);
    }
    session.record(tool.name, 'error' in result);
    if (tool.name === 'loom_load_tool_group' && result.ok === true && options.lazyTools) await server.sendToolListChanged();
    return asContent(result);
  });
  return { server, session };
}

/** `loom-vscode mcp`: serves until the client closes stdin. Nothing but JSON-RPC goes to stdout. */
export async function serveStdio(options: LoomMcpServerOptions): Promise<void> {
  const { server } = createLoomMcpServer(options);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(new StdioServerTransport());
  process.stdin.once('end', () => void server.close());
  await closed;
}
