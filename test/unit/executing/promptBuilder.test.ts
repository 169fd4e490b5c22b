import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { buildFixPrompt, buildImplementerPrompt, buildReviewerPrompt, buildTestReporterPrompt, renderRequirementLines, type PromptContext } from '../../../src/core/executing/dispatch/promptBuilder';
import { detectLanguage, loadPromptTemplates, renderTemplate } from '../../../src/core/executing/dispatch/prompts/promptTemplates';
import { relevantSpecSections } from '../../../src/core/executing/dispatch/specSections';
import { readExecutingInputs, promptContextOf, promptTaskOf } from '../../../src/core/executing/dispatch/executingInputs';
import { loadSpec } from '../../../src/core/specdir/loadSpec';
import { TempRepo } from '../../helpers/tempRepo';
import { executingFixture } from './helpers/executingFixture';

const repos: TempRepo[] = [];
after(() => repos.forEach((r) => r.dispose()));

function context(language: 'en' | 'zh' = 'en') {
  const { repo, specDir } = executingFixture();
  repos.push(repo);
  const snapshot = loadSpec(repo.root, specDir);
  const inputs = readExecutingInputs(snapshot, { language });
  return { repo, inputs, ctx: promptContextOf(inputs, snapshot, 'npm test'), t1: promptTaskOf(inputs, inputs.tasks[0]) };
}

test('first-implementation prompt: task, its requirement and behavior entries, traceability, needed spec sections, context, handoffs', () => {
  const { ctx, t1 } = context();
  const p = buildImplementerPrompt(ctx, t1, { upstreamHandoffs: '- T0 (done): groundwork' });
  assert.match(p, /implementer subagent for task T1 \(T1 Parse due dates\)/);
  assert.match(p, /Add parseDueDate\(text\) to src\/due.js/);
  assert.match(p, /\*\*REQ-001-B02\*\* \[invalid-input\] an invalid date is rejected\n {2}- acceptance: .*\n {2}- test strategy: unit/);
  assert.match(p, /- REQ-001-B01: tasks T1; tests -; evidence -/);
  assert.match(p, /## REQ-001 Parse due dates/);
  assert.doesNotMatch(p, /## REQ-002 Show due dates/, 'only the sections the task needs');
  assert.match(p, /# Due dates\n\nTasks in the todo app/, "the spec's opening comes along");
  assert.match(p, /Node 20, CommonJS/);
  assert.match(p, /1\. No new dependencies/);
  assert.match(p, /- T0 \(done\): groundwork/);
  assert.match(p, /only inside this task's owns: src\/due.js, tests\/due.test.js/);
  assert.match(p, /loom_run_tests tool \(npm test\)/);
  assert.doesNotMatch(p, /\{\{/, 'every placeholder is filled');
  assert.doesNotMatch(p, /REQ-002-B01/);
});

test('fix-mode prompt: fix items, subagent context and requirement lines only, much smaller', () => {
  const { ctx, t1 } = context();
  const first = buildImplementerPrompt(ctx, t1, { upstreamHandoffs: '' });
  const fix = buildFixPrompt(ctx, t1, [{ problem: 'month 13 accepted', file: 'src/due.js', severity: 'major', direction: 'check the range' }]);
  assert.match(fix, /### Fix item 1\n- Problem: month 13 accepted/);
  assert.match(fix, /- REQ-001\n {2}- REQ-001-B01: a valid YYYY-MM-DD date is parsed \(checked by a unit test\)\n {2}- REQ-001-B02: an invalid date is rejected \(checked by a unit test\)\n/);
  assert.doesNotMatch(fix, /Add parseDueDate/);
  assert.doesNotMatch(fix, /Constitution/);
  assert.doesNotMatch(fix, /Tasks in the todo app/);
  assert.ok(fix.length < first.length * 0.4, `${fix.length} vs ${first.length}`);
});

test("reviewer prompt carries the diff and the implementer's report; test-reporter prompt the whole spec", () => {
  const { ctx, t1, inputs } = context();
  const r = buildReviewerPrompt(ctx, t1, { diff: 'diff --git a/src/due.js b/src/due.js\n+exports.parseDueDate', implementerReport: 'STATUS: DONE\nAdded it.' });
  assert.match(r, /combined reviewer/);
  assert.match(r, /\+exports.parseDueDate/);
  assert.match(r, /STATUS: DONE\nAdded it\./);
  assert.match(r, /verdict: PASS` or `verdict: FAIL`/);
  const t = buildTestReporterPrompt(ctx, { finishedTasks: inputs.tasks.map((x) => `${x.id} ${x.title}`) });
  assert.match(t, /## REQ-002 Show due dates/);
  assert.match(t, /- T2 T2 Show due dates/);
});

test("Chinese specs get the Chinese templates and loom's Chinese headings", () => {
  const { ctx, t1 } = context('zh');
  const p = buildImplementerPrompt(ctx, t1, { upstreamHandoffs: '' });
  assert.match(p, /你是 loom 规格/);
  assert.match(p, /状态：DONE \| DONE_WITH_CONCERNS/);
  const fix = buildFixPrompt(ctx, t1, [{ problem: '月份未校验' }]);
  assert.match(fix, /## 修复指令\n\n### 修复项 1\n- 问题: 月份未校验/);
  assert.match(buildReviewerPrompt(ctx, t1, { diff: '', implementerReport: '' }), /结论：通过/);
  assert.equal(detectLanguage('# 截止日期\n\n用户可以为任务设置截止日期，并在列表中显示。REQ-001 解析日期。'), 'zh');
  assert.equal(detectLanguage('# Due dates\n\nUsers set a due date. 日期'), 'en');
});

test('a repository overrides a template with .loom/prompts/<name>.md, language-specific first', () => {
  const repo = new TempRepo('loom-prompts-');
  repos.push(repo);
  repo.write('.loom/prompts/implementer-fix-prompt.md', 'FIX {{task_id}}\n{{fix_instructions}}');
  repo.write('.loom/prompts/implementer-fix-prompt.zh.md', '修复 {{task_id}}');
  assert.equal(loadPromptTemplates(repo.root, 'en')['implementer-fix-prompt'], 'FIX {{task_id}}\n{{fix_instructions}}');
  assert.equal(loadPromptTemplates(repo.root, 'zh')['implementer-fix-prompt'], '修复 {{task_id}}');
  assert.deepEqual(loadPromptTemplates(repo.root, 'en').overridden, ['.loom/prompts/implementer-fix-prompt.md']);
  assert.equal(loadPromptTemplates(repo.root, 'en')['implementer-prompt'], loadPromptTemplates(undefined, 'en')['implementer-prompt']);
  const ctx: PromptContext = { specName: 's', language: 'en', templates: loadPromptTemplates(repo.root, 'en'), specText: '', subagentContext: '', constitution: '', requirements: [] };
  assert.equal(buildFixPrompt(ctx, { id: 'T9', owns: [], requirements: [], behavior_ids: [] }, [{ problem: 'x' }]), 'FIX T9\n## Fix instructions\n\n### Fix item 1\n- Problem: x');
});

test('placeholders are filled in one pass: a value quoting {{x}} is not expanded', () => {
  assert.equal(
    renderTemplate(
      'a {{one}} b {{ two }} {{missing}}',
      new Map([
        ['one', '{{two}}'],
        ['two', '2'],
      ]),
    ),
    'a {{two}} b 2 ',
  );
});

test('spec sections: matching sections with their parent, the opening always, the whole spec when nothing matches', () => {
  const spec = '# Title\n\nIntro.\n\n## Part A\n\nabout REQ-001\n\n## Part B\n\nstuff\n\n### B.1\n\nREQ-002-B01 here\n\n## Part C\n\nREQ-0011 is not REQ-001';
  const only2 = relevantSpecSections(spec, ['REQ-002-B01']);
  assert.match(only2, /# Title\n\nIntro\./);
  assert.match(only2, /## Part B/);
  assert.match(only2, /### B\.1/);
  assert.doesNotMatch(only2, /Part A|Part C/);
  assert.doesNotMatch(relevantSpecSections(spec, ['REQ-0011']), /Part A/);
  assert.match(relevantSpecSections(spec, ['REQ-999']), /Part A[\s\S]*Part C/);
  assert.match(relevantSpecSections(spec, [], 20), /truncated/);
});

test('requirement lines stay one line each', () => {
  const long = 'x'.repeat(500);
  const lines = renderRequirementLines([
    { id: 'REQ-001', status: 'in_progress', acceptance: [long], behaviors: [{ id: 'REQ-001-B01', category: 'happy-path', description: long, status: 'in_progress', acceptance: ['a'] }] },
  ]).split('\n');
  assert.equal(lines.length, 2);
  assert.ok(lines.every((l) => l.length < 400));
});
