import type * as JsoncParser from 'jsonc-parser/lib/esm/main.js';
import { lazily } from '../../shared/lazily';
import { t } from '../messages';
import { LOOM_COMMAND } from './agentHostFiles';

// The ESM build, as teamRules.ts loads it (esbuild cannot follow the UMD build's requires).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use; esbuild bundles it as it bundles an import
const jsoncParser = lazily(() => require('jsonc-parser/lib/esm/main.js') as typeof JsoncParser);

/** The repository's MCP configuration read by Claude Code, the Copilot CLI and VS Code's agent plugins. */
export const MCP_JSON_FILE = '.mcp.json';

/** Loom's server as the plugin's .mcp.json starts it: `loom-vscode mcp` in the folder the agent works in. */
export const LOOM_MCP_SERVER = Object.freeze({ command: LOOM_COMMAND, args: ['mcp'] });

export type McpJsonEdit = { kind: 'written'; text: string } | { kind: 'unchanged' } | { kind: 'unreadable'; message: string };

/**
 * The repository's .mcp.json with Loom's server under `mcpServers.loom`: a new file when there is
 * none, else the file edited in place (its other servers, comments and layout kept). A file that
 * does not parse is left alone and named, as loom's files are.
 */
export function withLoomServer(existing: string | undefined): McpJsonEdit {
  if (existing === undefined || existing.trim() === '') return { kind: 'written', text: `${JSON.stringify({ mcpServers: { loom: LOOM_MCP_SERVER } }, null, 2)}\n` };
  const jsonc = jsoncParser();
  const errors: JsoncParser.ParseError[] = [];
  const value: unknown = jsonc.parse(existing, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length || !value || typeof value !== 'object' || Array.isArray(value)) {
    const at = errors[0] ? jsonc.printParseErrorCode(errors[0].error) : 'not an object';
    return { kind: 'unreadable', message: t('agentHost.mcpJson.unreadable', { file: MCP_JSON_FILE, detail: at }) };
  }
  const current = (value as { mcpServers?: { loom?: unknown } }).mcpServers?.loom;
  if (JSON.stringify(current) === JSON.stringify(LOOM_MCP_SERVER)) return { kind: 'unchanged' };
  const edits = jsonc.modify(existing, ['mcpServers', 'loom'], { ...LOOM_MCP_SERVER, args: [...LOOM_MCP_SERVER.args] }, { formattingOptions: { insertSpaces: true, tabSize: 2 } });
  return { kind: 'written', text: jsonc.applyEdits(existing, edits) };
}
