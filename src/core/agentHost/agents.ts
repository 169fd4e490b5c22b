import { IMPLEMENTER_EN, IMPLEMENTER_FIX_EN, REVIEWER_EN } from '../executing/dispatch/prompts/templatesEn';
import { IMPLEMENTER_FIX_ZH, IMPLEMENTER_ZH, REVIEWER_ZH } from '../executing/dispatch/prompts/templatesZh';
import { renderTemplate } from '../executing/dispatch/prompts/promptTemplates';
import { t, type Language } from '../messages';
import { frontmatter, gateAndNever, LOOM_SKILLS, stageList, STATUS_SKILL } from './skills';

/**
 * The custom agents Loom contributes to VS Code (`contributes.chatAgents`): the Loom agent, whose
 * tools are Loom's MCP server and the subagent tool, and the implementer and reviewer it runs for
 * each task. The subagents' instructions are Run Tasks' own prompt templates (implementer, its
 * fix mode, combined reviewer), with each part the loop fills in replaced by where to read it.
 */
export interface LoomAgent {
  /** The file name's stem (`<file>.agent.md`). */
  file: string;
  /** The `name` VS Code shows and the Loom agent's `agents:` list uses. */
  name: string;
  header: Readonly<Record<string, unknown>>;
  body(lang: Language): string;
}

/** The server's tools as VS Code names them: the definition's label in lower case (`Loom`, or `loom` in .mcp.json), then `/*`. */
export const LOOM_MCP_TOOLS = 'loom/*';
export const IMPLEMENTER_AGENT = 'loom-implementer';
export const REVIEWER_AGENT = 'loom-reviewer';

// What the loop fills in, and where a subagent reads it instead.
function placeholders(lang: Language): Map<string, string> {
  const w = (key: Parameters<typeof t>[0]) => t(key as 'agentHost.sub.owns', {}, lang);
  return new Map([
    ['spec_name', w('agentHost.sub.specName')],
    ['task_id', w('agentHost.sub.taskId')],
    ['task_title', w('agentHost.sub.taskTitle')],
    ['owns', w('agentHost.sub.owns')],
    ['task_file', w('agentHost.sub.taskFile')],
    ['requirements', w('agentHost.sub.requirements')],
    ['traceability', w('agentHost.sub.traceability')],
    ['spec_sections', w('agentHost.sub.specSections')],
    ['upstream_handoffs', w('agentHost.sub.handoffs')],
    ['subagent_context', w('agentHost.sub.context')],
    ['constitution', w('agentHost.sub.constitution')],
    ['extra_context', ''],
    ['fix_instructions', w('agentHost.sub.fixInstructions')],
    ['requirement_lines', w('agentHost.sub.requirementLines')],
    ['behaviors', w('agentHost.sub.behaviors')],
    ['implementer_report', w('agentHost.sub.report')],
    ['diff', w('agentHost.sub.diff')],
    ['test_command', t('prompt.testCommand', {}, lang)],
    ['run_tests', t('prompt.runTests.terminal', {}, lang)],
  ]);
}

const TEMPLATES = {
  en: { implementer: IMPLEMENTER_EN, fix: IMPLEMENTER_FIX_EN, reviewer: REVIEWER_EN },
  zh: { implementer: IMPLEMENTER_ZH, fix: IMPLEMENTER_FIX_ZH, reviewer: REVIEWER_ZH },
} as const;

const bilingual = (en: string, zh: string) => `${en} ${zh}`;

function loomBody(lang: Language): string {
  const rows = LOOM_SKILLS.filter((s) => s.stages.length).map((s) => t('agentHost.status.row', { stages: stageList(s, lang), skill: s.name }, lang));
  return [
    t('agentHost.agent.intro', {}, lang),
    '',
    t('agentHost.heading.status', {}, lang),
    '',
    t('agentHost.status.context', {}, lang),
    '',
    t('agentHost.agent.skills', {}, lang),
    ...rows.map((r) => r.replace(/^ {2}/, '')),
    `- ${t('agentHost.status.title', {}, lang)}: \`${STATUS_SKILL}\``,
    '',
    t('agentHost.agent.subagents', { implementer: IMPLEMENTER_AGENT, reviewer: REVIEWER_AGENT }, lang),
    '',
    t('agentHost.heading.check', {}, lang),
    '',
    t('agentHost.check.advance', {}, lang),
    '',
    ...gateAndNever(lang),
  ].join('\n');
}

function implementerBody(lang: Language): string {
  const values = placeholders(lang);
  return [
    t('agentHost.sub.intro', {}, lang),
    '',
    renderTemplate(TEMPLATES[lang].implementer, values).trim(),
    '',
    t('agentHost.sub.fixMode', {}, lang),
    '',
    t('agentHost.sub.fixModeWhen', {}, lang),
    '',
    renderTemplate(TEMPLATES[lang].fix, values).trim(),
  ].join('\n');
}

function reviewerBody(lang: Language): string {
  return [t('agentHost.sub.intro', {}, lang), '', renderTemplate(TEMPLATES[lang].reviewer, placeholders(lang)).trim()].join('\n');
}

export const LOOM_AGENTS: readonly LoomAgent[] = [
  {
    file: 'loom',
    name: 'Loom',
    header: {
      name: 'Loom',
      description: bilingual(t('agentHost.agent.description', {}, 'en'), t('agentHost.agent.description', {}, 'zh')),
      'argument-hint': t('agentHost.agent.hint', {}, 'en'),
      // Loom's server and the subagent tool; reading, editing, search and a terminal for the stages' own files and tests.
      tools: [LOOM_MCP_TOOLS, 'agent', 'read', 'search', 'edit', 'execute', 'todo'],
      agents: [IMPLEMENTER_AGENT, REVIEWER_AGENT],
    },
    body: loomBody,
  },
  {
    file: IMPLEMENTER_AGENT,
    name: IMPLEMENTER_AGENT,
    header: {
      name: IMPLEMENTER_AGENT,
      description: bilingual(t('agentHost.implementer.description', {}, 'en'), t('agentHost.implementer.description', {}, 'zh')),
      // No Loom tools: the implementer never records state; Loom's agent does, from its answer.
      tools: ['read', 'search', 'edit', 'execute'],
      'user-invocable': false,
    },
    body: implementerBody,
  },
  {
    file: REVIEWER_AGENT,
    name: REVIEWER_AGENT,
    header: {
      name: REVIEWER_AGENT,
      description: bilingual(t('agentHost.reviewer.description', {}, 'en'), t('agentHost.reviewer.description', {}, 'zh')),
      // It reads and runs git diff; it cannot change files.
      tools: ['read', 'search', 'execute'],
      'user-invocable': false,
    },
    body: reviewerBody,
  },
];

/** The agent's files: `<file>.agent.md` in English, and `<file>.zh.md` with the Chinese instructions it points to. */
export function agentFiles(agent: LoomAgent): Map<string, string> {
  const zh = `${agent.file}.zh.md`;
  const en = `${agent.file}.agent.md`;
  return new Map([
    [en, `${frontmatter(agent.header)}\n${t('agentHost.skill.language', { file: zh }, 'en')}\n\n${agent.body('en')}\n`],
    [zh, `${t('agentHost.skill.language', { file: en }, 'zh')}\n\n${agent.body('zh')}\n`],
  ]);
}
