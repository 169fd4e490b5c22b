import { serveStdio } from '../mcp/server';

/**
 * `loom-vscode mcp`: the MCP server on stdio, configured from the environment as loom's
 * `mcp-serve` is (`LOOM_LAZY_TOOLS=0` lists every tool, `LOOM_TELEMETRY=1` counts calls). The
 * agent's client owns the process: it ends when the client closes stdin.
 */
export async function runMcpServer(root: string, version: string, lockWaitMs: number): Promise<void> {
  await serveStdio({ root, version, lazyTools: process.env.LOOM_LAZY_TOOLS !== '0', telemetry: process.env.LOOM_TELEMETRY === '1', lockWaitMs });
}
