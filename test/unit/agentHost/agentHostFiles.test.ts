import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { AGENT_HOST_DIR, agentHostFiles, agentPath, HOOKS_PLUGIN_DIR, skillPath } from '../../../src/core/agentHost/agentHostFiles';
import { IMPLEMENTER_AGENT, LOOM_AGENTS, LOOM_MCP_TOOLS, REVIEWER_AGENT } from '../../../src/core/agentHost/agents';
import { IMPLEMENTER_FIX_EN, IMPLEMENTER_EN, REVIEWER_EN } from '../../../src/core/executing/dispatch/prompts/templatesEn';
import { IMPLEMENTER_ZH } from '../../../src/core/executing/dispatch/prompts/templatesZh';
import { LOOM_SKILLS, skillNameProblem } from '../../../src/core/agentHost/skills';
import { BRAINSTORM_STAGE_EN, PLAN_STAGE_EN, RESPOND_STAGE_EN } from '../../../src/core/authoring/prompts/authoringEn';
import { BRAINSTORM_STAGE_ZH, PLAN_STAGE_ZH, RESPOND_STAGE_ZH } from '../../../src/core/authoring/prompts/authoringZh';
import { LOOM_TOOLS } from '../../../src/mcp/catalog';

const ROOT = resolve(__dirname, '../../..');
const read = (p: string) => readFileSync(join(ROOT, p), 'utf8');

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : [relative(ROOT, p).split('\\').join('/')];
  });
}

/**
 * The frontmatter as VS Code's prompt-file parser finds it (a first line `---`, up to the next
 * line `---`), parsed as YAML, and the body after it.
 */
function split(text: string): { header: Record<string, unknown>; body: string } {
  const lines = text.split('\n');
  assert.match(lines[0], /^---\s*$/, 'the file starts with a --- line');
  const end = lines.findIndex((l, i) => i > 0 && /^---\s*$/.test(l));
  assert.ok(end > 0, 'the frontmatter ends with a --- line');
  const header = parse(lines.slice(1, end).join('\n')) as Record<string, unknown>;
  assert.equal(typeof header, 'object');
  return { header, body: lines.slice(end + 1).join('\n') };
}

// The SKILL.md attributes of the Agent Skills format that VS Code 1.139 reads (its prompt-file
// header attributes for skills: name, description, license, compatibility, metadata,
// user-invocable, disable-model-invocation, argument-hint, context) plus allowed-tools of the format.
const SKILL_ATTRIBUTES = new Set(['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools', 'user-invocable', 'disable-model-invocation', 'argument-hint', 'context']);

describe('the skills Loom contributes to VS Code’s agents', () => {
  it('are the files npm run agent-files writes (run it after changing a prompt or a stage text)', () => {
    const files = agentHostFiles();
    const onDisk = walk(join(ROOT, AGENT_HOST_DIR)).filter((f) => !f.endsWith('.gitkeep'));
    assert.deepEqual(onDisk.sort(), [...files.keys()].sort(), 'plugin/ holds exactly the generated files');
    for (const [file, text] of files) assert.equal(read(file), text, `${file} is out of date: run npm run agent-files`);
  });

  it('are named by the Agent Skills rules, in a folder named as the skill', () => {
    for (const skill of LOOM_SKILLS) {
      assert.equal(skillNameProblem(skill.name), undefined);
      const { header } = split(read(skillPath(skill.name)));
      assert.equal(header.name, skill.name);
      assert.equal(skillPath(skill.name).split('/').at(-2), header.name);
      assert.equal(typeof header.description, 'string');
      const description = header.description as string;
      assert.ok(description.length > 0 && description.length <= 1024, `${skill.name}: description of ${description.length} characters`);
      assert.ok(!/<[^>]+>/.test(description.replace(/<name>/g, '')), 'VS Code strips tags from a description');
      for (const key of Object.keys(header)) assert.ok(SKILL_ATTRIBUTES.has(key), `${skill.name}: ${key} is not a SKILL.md attribute`);
    }
    assert.equal(new Set(LOOM_SKILLS.map((s) => s.name)).size, LOOM_SKILLS.length);
  });

  it('a bad name is caught', () => {
    for (const bad of ['Loom-Planning', 'loom_planning', '-loom', 'loom-', 'loom--planning', 'a'.repeat(65), '', 'loom/planning', 'loom.planning']) {
      assert.ok(skillNameProblem(bad), bad);
    }
    assert.equal(skillNameProblem('a'.repeat(64)), undefined);
  });

  it('name only tools Loom’s MCP server offers', () => {
    const offered = new Set(LOOM_TOOLS.map((tool) => tool.name));
    for (const [file, text] of agentHostFiles()) {
      const named = [...text.matchAll(/\bloom_[a-z_]+\b/g)].map((m) => m[0]);
      for (const name of named) assert.ok(offered.has(name), `${file} names ${name}, which Loom's MCP server does not offer`);
    }
    for (const skill of LOOM_SKILLS) for (const tool of skill.checks) assert.ok(offered.has(tool), `${skill.name} checks with ${tool}`);
  });

  it('tell the agent to look first, move on only through Loom, leave the state files to it and stop at gates, in both languages', () => {
    for (const skill of LOOM_SKILLS) {
      const en = read(skillPath(skill.name));
      const zh = read(skillPath(skill.name).replace(/SKILL\.md$/, 'zh.md'));
      for (const text of [en, zh]) {
        assert.ok(text.indexOf('loom_get_pipeline_context') < text.indexOf('loom_approve_gate'), `${skill.name}: status comes first`);
        assert.match(text, /pipeline\.state\.json`/);
        assert.match(text, /task-states\//);
        assert.match(text, /handoffs\//);
        assert.match(text, /`loom_approve_gate`/);
        assert.match(text, /`is_gate`/);
      }
      assert.ok((zh.match(/[\u4e00-\u9fff]/g) ?? []).length > 200, `${skill.name}: zh.md is Chinese`);
      assert.match(en, /\(zh\.md\)/, `${skill.name}: SKILL.md points at zh.md`);
    }
  });

  it('carry the same stage texts as @loom’s prompts', () => {
    const pairs: [string, string, string][] = [
      ['loom-vscode-brainstorming', BRAINSTORM_STAGE_EN, BRAINSTORM_STAGE_ZH],
      ['loom-vscode-planning', PLAN_STAGE_EN, PLAN_STAGE_ZH],
      ['loom-vscode-code-review-response', RESPOND_STAGE_EN, RESPOND_STAGE_ZH],
    ];
    for (const [name, en, zh] of pairs) {
      assert.ok(read(skillPath(name)).includes(en), `${name}: SKILL.md holds the @loom prompt's stage text`);
      assert.ok(read(skillPath(name).replace(/SKILL\.md$/, 'zh.md')).includes(zh), `${name}: zh.md holds the Chinese one`);
    }
    assert.ok(!read(skillPath('loom-vscode-detail-expansion')).includes('{{'), 'placeholders are filled');
  });

  it('are contributed in package.json and shipped by .vscodeignore', () => {
    const pkg = JSON.parse(read('package.json')) as { contributes: { chatSkills?: { path: string }[] } };
    assert.deepEqual(
      (pkg.contributes.chatSkills ?? []).map((s) => s.path),
      LOOM_SKILLS.map((s) => `./${skillPath(s.name)}`),
    );
    assert.match(read('.vscodeignore'), new RegExp(`^!${AGENT_HOST_DIR}/\\*\\*$`, 'm'));
  });
});

// The header attributes VS Code 1.139 reads from a custom agent file (its prompt-file header
// attributes; docs/copilot/customization/custom-agents.md lists the same), and the tool sets of its agent mode.
const AGENT_ATTRIBUTES = new Set(['name', 'description', 'argument-hint', 'tools', 'agents', 'model', 'user-invocable', 'disable-model-invocation', 'target', 'handoffs']);
const TOOL_SETS = new Set(['execute', 'edit', 'search', 'agent', 'read', 'web', 'todo']);

describe('the agents Loom contributes to VS Code', () => {
  const agents = new Map(LOOM_AGENTS.map((a) => [a.file, split(read(agentPath(a.file)))]));

  it('parse with the frontmatter VS Code documents', () => {
    for (const [file, { header, body }] of agents) {
      for (const key of Object.keys(header)) assert.ok(AGENT_ATTRIBUTES.has(key), `${file}: ${key} is not an agent attribute`);
      assert.equal(typeof header.name, 'string');
      assert.equal(typeof header.description, 'string');
      assert.ok(Array.isArray(header.tools) && (header.tools as unknown[]).every((x) => typeof x === 'string'), `${file}: tools is a list of names`);
      for (const tool of header.tools as string[]) assert.ok(tool === LOOM_MCP_TOOLS || TOOL_SETS.has(tool), `${file}: ${tool}`);
      if ('user-invocable' in header) assert.equal(typeof header['user-invocable'], 'boolean');
      assert.ok(body.trim().length > 200);
    }
  });

  it('the Loom agent has Loom’s MCP server and the subagent tool, and runs the two subagents; they are not user-invocable', () => {
    const loom = agents.get('loom')!.header;
    assert.ok((loom.tools as string[]).includes(LOOM_MCP_TOOLS));
    assert.ok((loom.tools as string[]).includes('agent'), 'agents: needs the agent tool');
    assert.deepEqual(loom.agents, [IMPLEMENTER_AGENT, REVIEWER_AGENT]);
    for (const name of [IMPLEMENTER_AGENT, REVIEWER_AGENT]) {
      const { header } = agents.get(name)!;
      assert.equal(header.name, name);
      assert.equal(header['user-invocable'], false);
      assert.ok(!(header.tools as string[]).includes(LOOM_MCP_TOOLS), `${name} records nothing itself`);
    }
    assert.ok(!(agents.get(REVIEWER_AGENT)!.header.tools as string[]).includes('edit'), 'the reviewer cannot change files');
  });

  it('the subagents carry Run Tasks’ own instructions, confinement and fix mode', () => {
    const implementer = read(agentPath(IMPLEMENTER_AGENT));
    const rule = (template: string, start: string) => template.split('\n').find((l) => l.startsWith(start))!;
    for (const line of [rule(IMPLEMENTER_EN, '- Write persistent tests'), rule(IMPLEMENTER_EN, '- Never write loom'), rule(IMPLEMENTER_EN, 'With NEEDS_CONTEXT')]) {
      assert.ok(implementer.includes(line), line);
    }
    assert.ok(implementer.includes(IMPLEMENTER_FIX_EN.split(':')[0].replace('{{task_id}}', 'TN')), 'fix mode');
    assert.ok(read(agentPath(IMPLEMENTER_AGENT).replace('.agent.md', '.zh.md')).includes(rule(IMPLEMENTER_ZH, '- 禁止写入 loom')));
    assert.ok(read(agentPath(REVIEWER_AGENT)).includes(rule(REVIEWER_EN, 'End with exactly one line')));
    for (const [file] of agents) assert.ok(!read(agentPath(file)).includes('{{'), `${file}: every placeholder is filled`);
  });

  it('are contributed in package.json', () => {
    const pkg = JSON.parse(read('package.json')) as { contributes: { chatAgents?: { path: string }[] } };
    assert.deepEqual(
      (pkg.contributes.chatAgents ?? []).map((s) => s.path),
      LOOM_AGENTS.map((a) => `./${agentPath(a.file)}`),
    );
  });
});

// VS Code hides a language-model tool from `#` references and the tool picker unless it can be
// referenced in a prompt, under its toolReferenceName; the README names them as `#name`.
describe('the language-model tools', () => {
  it('can each be referenced in a prompt by a name of its own, which the README gives', () => {
    const pkg = JSON.parse(read('package.json')) as { contributes: { languageModelTools: { name: string; toolReferenceName?: string; canBeReferencedInPrompt?: boolean }[] } };
    const tools = pkg.contributes.languageModelTools;
    assert.ok(tools.length >= 6);
    const readme = read('README.md');
    for (const tool of tools) {
      assert.equal(tool.canBeReferencedInPrompt, true, tool.name);
      assert.match(tool.toolReferenceName ?? '', /^[A-Za-z][A-Za-z0-9]*$/, tool.name);
      assert.ok(readme.includes(`\`#${tool.toolReferenceName}\``), `README names #${tool.toolReferenceName}`);
    }
    assert.equal(new Set(tools.map((x) => x.toolReferenceName)).size, tools.length);
  });
});

// VS Code loads the plugin the extension registers with chatPlugins beside its chatSkills,
// chatAgents and MCP definition provider: a plugin with skills, agents or a server too would list
// each twice. So the registered one is the hooks only, the same hooks as the full plugin, and only
// when the person turns them on (they need `loom-vscode` on the PATH).
describe('the plugin the extension registers', () => {
  it('is the full plugin’s hooks only, behind loom.agentHost.hooks', () => {
    const pkg = JSON.parse(read('package.json')) as {
      contributes: { chatPlugins?: { path: string; when?: string }[]; configuration: { properties: Record<string, { default?: unknown }> } };
    };
    assert.deepEqual(pkg.contributes.chatPlugins, [{ path: `./${HOOKS_PLUGIN_DIR}`, when: 'config.loom.agentHost.hooks' }]);
    assert.equal(pkg.contributes.configuration.properties['loom.agentHost.hooks']?.default, false);
    const manifest = JSON.parse(read(`${HOOKS_PLUGIN_DIR}/plugin.json`)) as Record<string, unknown>;
    assert.deepEqual(Object.keys(manifest).sort(), ['description', 'hooks', 'name']);
    const hooks = read(`${HOOKS_PLUGIN_DIR}/${manifest.hooks as string}`);
    assert.equal(hooks, read(`${AGENT_HOST_DIR}/hooks.json`));
    assert.deepEqual(Object.keys((JSON.parse(hooks) as { hooks: object }).hooks), ['SessionStart', 'Stop', 'SubagentStop']);
  });
});
