import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as JsoncParser from 'jsonc-parser/lib/esm/main.js';
import { lazily } from '../../shared/lazily';

// The ESM build, as jsonTree.ts loads it (esbuild cannot follow the UMD build's requires).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use; esbuild bundles it as it bundles an import
const jsoncParser = lazily(() => require('jsonc-parser/lib/esm/main.js') as typeof JsoncParser);

/**
 * The rules a team sets for its repository that gate a move, whoever asks for it: a person in
 * VS Code, `loom-vscode` in a terminal or CI, an agent over MCP. The spec's actor enforces
 * them through its guards, so no surface can walk around them.
 */
export interface TeamRules {
  /** `loom.review.blockOnOpenThreads`: an interactive stage is not left while review threads on its outputs are open. */
  blockOnOpenThreads: boolean;
  /**
   * `loom.approvals.requirePerson`: an approval or a confirmation counts only as the person's own
   * answer (VS Code's palette or tool confirmation, an MCP client's elicitation, a terminal), never
   * as an agent's report that the person agreed.
   */
  requirePerson?: boolean;
}

export const DEFAULT_TEAM_RULES: TeamRules = Object.freeze({ blockOnOpenThreads: false, requirePerson: false });

/** Where VS Code keeps a workspace folder's settings, and so where the team's rules are written. */
export const WORKSPACE_SETTINGS_FILE = '.vscode/settings.json';

const SETTING = { blockOnOpenThreads: 'loom.review.blockOnOpenThreads', requirePerson: 'loom.approvals.requirePerson' } as const;

/** A setting as VS Code reads it: the dotted key (`"loom.review.blockOnOpenThreads": true`), else nested objects. */
function settingOf(settings: unknown, dotted: string): unknown {
  if (!settings || typeof settings !== 'object') return undefined;
  const flat = settings as Record<string, unknown>;
  if (Object.hasOwn(flat, dotted)) return flat[dotted];
  let at: unknown = settings;
  for (const part of dotted.split('.')) {
    if (!at || typeof at !== 'object' || !Object.hasOwn(at, part)) return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

/**
 * The repository's `.vscode/settings.json`, read the way VS Code reads that file (JSON with
 * comments and trailing commas); undefined when it is missing. The CLI and the MCP server read
 * the team's settings here; the extension takes them from VS Code's configuration, which reads
 * the same file.
 */
function workspaceSettings(repoRoot: string): unknown {
  let text: string;
  try {
    text = readFileSync(join(repoRoot, WORKSPACE_SETTINGS_FILE), 'utf8');
  } catch {
    return undefined;
  }
  return jsoncParser().parse(text, [], { allowTrailingComma: true, disallowComments: false });
}

/**
 * The team's rules as the repository's `.vscode/settings.json` writes them. A file that is missing
 * or holds no rule leaves the defaults; a value of the wrong type counts as unset, as VS Code
 * ignores it.
 */
export function readTeamRules(repoRoot: string): TeamRules {
  const settings = workspaceSettings(repoRoot);
  return { blockOnOpenThreads: settingOf(settings, SETTING.blockOnOpenThreads) === true, requirePerson: settingOf(settings, SETTING.requirePerson) === true };
}

/**
 * A string setting of the repository's `.vscode/settings.json` (`loom.executing.testCommand`, the
 * test command Run Tasks and verification use), trimmed; undefined when unset, empty or not a string.
 */
export function readWorkspaceString(repoRoot: string, dotted: string): string | undefined {
  const value = settingOf(workspaceSettings(repoRoot), dotted);
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}
