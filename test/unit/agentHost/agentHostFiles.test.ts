import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { AGENT_HOST_DIR, agentHostFiles, skillPath } from '../../../src/core/agentHost/agentHostFiles';
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
