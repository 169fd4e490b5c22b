/**
 * The MCP server words its refusals, hints and questions in the display language (`--lang`, else
 * LC_ALL / LC_MESSAGES / LANG, as the CLI), while `code` stays the same English word in every
 * language, so an agent or a script that branches on it does not break.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { state, type TempRepo } from '../../helpers/tempRepo';
import { assertBuilt, BAD_STATE, connect, GATE, IDEA, pipelineRepo, type LoomClient } from './helpers';

/** A spec at `draft` without the spec.md the step produces: the core refuses the move. */
const EMPTY = 'specs/2026-12-06+empty';
const CJK = /[\u4e00-\u9fff]/;
const ESCAPE = '../../etc';

describe('loom-vscode mcp: refusals in the display language, with the same English code', () => {
  let repo: TempRepo;
  let en: LoomClient;
  let zh: LoomClient;
  let zhAsking: LoomClient;
  const declined: string[] = [];

  before(async () => {
    assertBuilt();
    repo = pipelineRepo();
    repo.write(`${EMPTY}/pipeline.state.json`, { ...state('draft'), spec_dir: EMPTY });
    [en, zh, zhAsking] = await Promise.all([
      connect(repo.root, { args: ['--lang', 'en'] }),
      connect(repo.root, { args: ['--lang', 'zh'] }),
      connect(repo.root, {
        args: ['--lang', 'zh'],
        answer: (message) => {
          declined.push(message);
          return { action: 'decline' };
        },
      }),
    ]);
  });
  after(async () => {
    await Promise.all([en, zh, zhAsking].map((c) => c?.close()));
    repo?.dispose();
  });

  /** Both servers answer the call with a refusal of `code`; the Chinese one in Chinese, the English one in English. */
  async function refusedInBoth(tool: string, args: Record<string, unknown>, code: string): Promise<{ en: any; zh: any }> {
    const [inEnglish, inChinese] = [await en.call(tool, args), await zh.call(tool, args)];
    assert.equal(inEnglish.code, code, `${tool} in English: ${inEnglish.error}`);
    assert.equal(inChinese.code, code, `${tool} in Chinese: ${inChinese.error}`);
    assert.doesNotMatch(inEnglish.error, CJK);
    assert.match(inChinese.error, CJK);
    if (inEnglish.hint !== undefined) {
      assert.doesNotMatch(inEnglish.hint, CJK);
      assert.match(inChinese.hint, CJK, `${tool}: the hint is in Chinese too`);
    }
    return { en: inEnglish, zh: inChinese };
  }

  it('a path that escapes the repository', async () => {
    const r = await refusedInBoth('loom_attach_spec', { spec_dir: ESCAPE }, 'outside-repository');
    assert.match(r.en.error, /^spec_dir "\.\.\/\.\.\/etc" escapes the repository .+; nothing was read or written$/);
    assert.match(r.zh.error, /^spec_dir "\.\.\/\.\.\/etc" 超出了仓库 .+；未读取或写入任何内容$/);
    assert.equal(r.zh.hint, '请传入仓库内的路径，相对于仓库根目录（例如 specs/<name>）');
  });

  it('no spec_dir, and one that is not a spec', async () => {
    const none = await refusedInBoth('loom_get_pipeline_context', {}, 'no-spec-dir');
    assert.equal(none.zh.error, '没有 spec_dir。请先调用 loom_attach_spec，或传入 spec_dir。');
    assert.equal(none.zh.hint, 'spec_dir 是相对于仓库的规格目录，例如 specs/2026-11-29+login');
    const notSpec = await refusedInBoth('loom_get_pipeline_context', { spec_dir: 'src' }, 'not-a-spec');
    assert.match(notSpec.zh.error, /^spec_dir "src" 不是 .+ 的规格目录$/);
  });

  it('a human-approval gate, and an interactive stage when the client cannot ask the person', async () => {
    const gate = await refusedInBoth('loom_advance_pipeline', { spec_dir: GATE }, 'human-approval-gate');
    assert.match(gate.zh.error, /处于 review，这是人工批准关卡：推进不会越过它/);
    assert.match(gate.zh.hint, /loom_approve_gate/);
    assert.match(gate.zh.hint, /“Loom: 批准”/);
    assert.match(gate.zh.hint, new RegExp(`loom-vscode approve --spec-dir ${GATE.replace('+', '\\+')}`));
    assert.equal(gate.zh.needs_confirmation, true, 'the other keys stay as they are');

    const idea = await refusedInBoth('loom_advance_pipeline', { spec_dir: IDEA }, 'confirmation-needed');
    assert.equal(idea.zh.error, `${IDEA}：离开 brainstorming 需要用户确认；未做任何更改`);
    assert.ok(idea.zh.confirmations.length > 0);
  });

  it('asks the person in Chinese, and words their no in Chinese', async () => {
    const r = await zhAsking.call('loom_approve_gate', { spec_dir: GATE });
    assert.equal(r.code, 'user-declined');
    assert.equal(r.error, `${GATE}：用户未批准 review（用户选择了拒绝）；未做任何更改`);
    assert.equal(r.hint, '请询问用户还缺少什么，然后再次调用');
    const lines = declined.at(-1)!.split('\n');
    assert.equal(lines[0], `智能体请求批准 ${GATE} 的 review 关卡。`);
    // The actor's question, in Chinese as every surface shows it.
    assert.equal(lines[1], '批准 gate 的 review，并推进到 build？');
    assert.ok(lines.includes('review 的产出：plan.md ✓'), lines.join('\n'));
    assert.ok(lines.includes('下一步：build。'), lines.join('\n'));
    assert.equal(lines.at(-1), '是否继续？');
  });

  it('a corrupt pipeline.state.json', async () => {
    const r = await refusedInBoth('loom_advance_pipeline', { spec_dir: BAD_STATE }, 'corrupt-file');
    assert.equal(r.zh.error, `${BAD_STATE}/pipeline.state.json 已损坏，无法确定当前阶段；未写入任何内容`);
    assert.equal(r.zh.hint, '请手动修复或恢复该文件，然后再次调用');
    assert.equal(r.zh.file, r.en.file);
  });

  it('the core’s refusal of a move, and invalid arguments', async () => {
    const moved = await refusedInBoth('loom_advance_pipeline', { spec_dir: EMPTY }, 'transition-refused');
    assert.deepEqual(moved.zh.codes, moved.en.codes, '`codes` stay English');
    assert.match(moved.zh.hint, /^请修复 `reasons` 列出的问题/);
    const bad = await refusedInBoth('loom_update_task_state', { spec_dir: IDEA, task_id: 'T1', status: 'finished' }, 'invalid-arguments');
    assert.match(bad.zh.error, /^loom_update_task_state 的参数无效：/);
  });

  it('takes the language from LANG when --lang is not given', async () => {
    const c = await connect(repo.root, { args: [], env: { LC_ALL: '', LC_MESSAGES: '', LANG: 'zh_CN.UTF-8' } });
    try {
      const r = await c.call('loom_attach_spec', { spec_dir: ESCAPE });
      assert.equal(r.code, 'outside-repository');
      assert.match(r.error, /超出了仓库/);
    } finally {
      await c.close();
    }
  });
});
