import { agentFiles, LOOM_AGENTS } from './agents';
import { LOOM_SKILLS, skillFiles } from './skills';

/** Where the contributed skills and agents live in the extension, relative to its root. */
export const AGENT_HOST_DIR = 'plugin';
export const SKILLS_DIR = `${AGENT_HOST_DIR}/skills`;
export const AGENTS_DIR = `${AGENT_HOST_DIR}/agents`;
/**
 * The part of the plugin the extension registers with `contributes.chatPlugins`: its hooks only.
 * The skills and agents are contributed on their own (chatSkills, chatAgents) and the MCP server
 * by the extension's definition provider, so a plugin with them too would list each twice.
 */
export const HOOKS_PLUGIN_DIR = `${AGENT_HOST_DIR}/vscode-hooks`;

/** The path of each skill's SKILL.md, as `contributes.chatSkills` names it. */
export const skillPath = (name: string) => `${SKILLS_DIR}/${name}/SKILL.md`;
/** The path of each agent file, as `contributes.chatAgents` names it. */
export const agentPath = (file: string) => `${AGENTS_DIR}/${file}.agent.md`;

/**
 * Every file Loom contributes to VS Code's agents, by path relative to the extension's root:
 * what `npm run agent-files` writes and what the unit test compares with the files checked in.
 */
export function agentHostFiles(): Map<string, string> {
  const out = new Map<string, string>();
  for (const skill of LOOM_SKILLS) for (const [file, text] of skillFiles(skill)) out.set(`${SKILLS_DIR}/${skill.name}/${file}`, text);
  for (const agent of LOOM_AGENTS) for (const [file, text] of agentFiles(agent)) out.set(`${AGENTS_DIR}/${file}`, text);
  for (const [file, value] of Object.entries(pluginFiles())) out.set(`${AGENT_HOST_DIR}/${file}`, `${JSON.stringify(value, null, 2)}\n`);
  for (const [file, value] of Object.entries(hooksPluginFiles())) out.set(`${HOOKS_PLUGIN_DIR}/${file}`, `${JSON.stringify(value, null, 2)}\n`);
  return out;
}

/** The command the plugin's server and hooks start: `loom-vscode` on the PATH (`npm install -g loom-vscode`, or the extension's bin). */
export const LOOM_COMMAND = 'loom-vscode';

/**
 * The plugin around the same skills and agents (VS Code's agent plugins, the Copilot CLI, Claude
 * Code): its manifest, Loom's MCP server for the folder the agent works in, and the hooks that
 * keep an agent working while Loom says a task is not done: SessionStart notes the errors already
 * there, Stop and SubagentStop check the records, the tests and new errors (`loom-vscode
 * stop-hook`, src/cli/stopHookCommand.ts).
 */
function hooks(): Record<string, unknown> {
  // A stop runs the project's tests (stopWork.ts), which Loom cuts off at 240 s: the hook waits a little longer.
  const hook = [{ type: 'command', command: `${LOOM_COMMAND} stop-hook`, timeout: 300 }];
  const start = [{ type: 'command', command: `${LOOM_COMMAND} stop-hook`, timeout: 30 }];
  return { hooks: { SessionStart: start, Stop: hook, SubagentStop: hook } };
}

export function pluginFiles(): Record<string, unknown> {
  return {
    'plugin.json': {
      name: 'loom',
      description:
        "Loom's pipeline for loom specs: a skill per stage, the Loom agent with implementer and reviewer subagents, Loom's MCP server, and hooks that keep an agent working while a task is not done.",
      skills: 'skills',
      agents: 'agents',
      hooks: 'hooks.json',
      mcpServers: '.mcp.json',
    },
    '.mcp.json': { mcpServers: { loom: { command: LOOM_COMMAND, args: ['mcp'] } } },
    'hooks.json': hooks(),
  };
}

/** The hooks-only plugin VS Code loads from the extension when `loom.agentHost.hooks` is on. */
export function hooksPluginFiles(): Record<string, unknown> {
  return {
    'plugin.json': {
      name: 'loom-hooks',
      description: "Loom's SessionStart, Stop and SubagentStop hooks: an agent is kept working while Loom says a task is not done (its records, the project's tests, new errors in the specs' files).",
      hooks: 'hooks.json',
    },
    'hooks.json': hooks(),
  };
}
