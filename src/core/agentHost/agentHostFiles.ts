import { agentFiles, LOOM_AGENTS } from './agents';
import { LOOM_SKILLS, skillFiles } from './skills';

/** Where the contributed skills and agents live in the extension, relative to its root. */
export const AGENT_HOST_DIR = 'plugin';
export const SKILLS_DIR = `${AGENT_HOST_DIR}/skills`;
export const AGENTS_DIR = `${AGENT_HOST_DIR}/agents`;

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
  return out;
}
