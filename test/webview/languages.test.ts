/**
 * Both views in English and in Chinese, from models the core builds for a Chinese spec (loom's
 * users write their specs in Chinese): the page's labels follow the host's language, the core's
 * words (checklist, stage descriptions, breaker) follow the same, and fix instructions read as a
 * list. Screenshots go to test-results/ (dashboard-en.png, dashboard-zh.png, matrix-en.png,
 * matrix-zh.png), to be looked at: a machine without a CJK font shows empty boxes there.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setDisplayLanguage, type Language } from '../../src/core/messages';
import { LoomRepository } from '../../src/core/repository/loomRepository';
import { buildDashboardModel } from '../../src/core/views/dashboardModel';
import { buildMatrixModel } from '../../src/core/views/matrixModel';
import { WebviewHarness } from './support/harness';

const SPEC = 'specs/2026-11-29+login';
const REVIEW = [
  '不通过',
  '',
  '## 修复指令',
  '',
  '### 修复项 1',
  '- 问题：锁定计数没有持久化',
  '- 文件：src/auth/lockout.ts',
  '- 位置：42',
  '- 严重度：BLOCKER',
  '- 修复方向：把计数写入 users 表',
  '',
  '### 修复项 2',
  '- 问题：没有测试覆盖 15 分钟后解锁',
].join('\n');

let harness: WebviewHarness;
let repo: string;
before(async () => {
  harness = await WebviewHarness.start();
  repo = mkdtempSync(join(tmpdir(), 'loom-webview-lang-'));
  cpSync(join(__dirname, '../fixtures/cli/basic'), repo, { recursive: true });
  const stateFile = join(repo, SPEC, 'task-states/T3.state.json');
  writeFileSync(stateFile, JSON.stringify({ ...JSON.parse(readFileSync(stateFile, 'utf8')), last_reviewer_result: REVIEW }, null, 2));
});
after(async () => {
  await harness?.close();
  rmSync(repo, { recursive: true, force: true });
  setDisplayLanguage('en');
});

/** The models as the host builds them with VS Code in `language`. */
function models(language: Language) {
  setDisplayLanguage(language);
  try {
    const spec = new LoomRepository(repo).get(SPEC)!;
    return { dashboard: buildDashboardModel(spec), matrix: buildMatrixModel(spec.snapshot) };
  } finally {
    setDisplayLanguage('en');
  }
}

const text = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim();

describe('languages', () => {
  for (const language of ['en', 'zh'] as const) {
    const zh = language === 'zh';
    it(`dashboard in ${language}`, async () => {
      const { dashboard } = models(language);
      const p = await harness.open('dashboard', { language, reply: { type: 'init', model: dashboard, language }, viewport: { width: 1280, height: 1000 } });
      const page = p.page;
      assert.equal(await page.evaluate('document.documentElement.lang'), zh ? 'zh-CN' : 'en');
      assert.equal(text(await page.locator('#next-title').textContent()), zh ? '下一步' : 'Next step');
      const headers = (await page.locator('#tasks th').allTextContents()).map(text);
      assert.deepEqual(headers.slice(0, 5), zh ? ['任务', '标题', '状态', '重试', '最近审查'] : ['Task', 'Title', 'Status', 'Retries', 'Last review']);
      // The Title column is the heading without its id: `# T3: 失败锁定` reads 失败锁定.
      const t3 = page.locator('#tasks tr[data-task=T3]');
      assert.equal(text(await t3.locator('td.title').textContent()), '失败锁定');
      // Fix instructions are a list of two items, not literal markdown.
      const review = t3.locator('td.reviewer');
      assert.equal(await review.locator('ol.fix-items > li').count(), 2);
      assert.doesNotMatch(text(await review.textContent()), /##|修复项/);
      assert.equal(text(await review.locator('.summary').first().textContent()), '不通过');
      const first = text(await review.locator('ol.fix-items > li').first().innerText());
      assert.equal(first, `BLOCKER 锁定计数没有持久化 src/auth/lockout.ts:42 ${zh ? '修复方向：' : 'Direction: '}把计数写入 users 表`);
      // Stage descriptions: loom's own Chinese in Chinese, the English text in English.
      const executing = await page.locator('.step[data-stage=executing] .step-name').getAttribute('title');
      assert.equal(executing, zh ? 'Subagent 编码执行（隔离派发 + 合并审查 + 增量修复）' : 'Subagents write the code (isolated dispatch, combined review, incremental fixes)');
      // The checklist comes from the core in the same language.
      const labels = (await page.locator('#next .preconditions > li > span:nth-child(2)').allTextContents()).map(text);
      assert.ok(labels.length > 0);
      for (const label of labels) assert.equal(/[\u4e00-\u9fff]/.test(label), zh, label);
      await page.evaluate('window.scrollTo(0, 0)');
      await p.settle(150);
      await page.screenshot({ path: join(await p.screenshot(`dashboard-${language}`), '..', `dashboard-${language}-full.png`), fullPage: true });
      await p.finish();
    });

    it(`matrix in ${language}`, async () => {
      const { matrix } = models(language);
      const p = await harness.open('matrix', { language, reply: { type: 'init', model: matrix, language }, viewport: { width: 1280, height: 700 } });
      const headers = (await p.page.locator('.header-row .cell').allTextContents()).map(text);
      assert.deepEqual(headers, zh ? ['行为', '类别', '状态', '任务', '测试', '证据', '闭环'] : ['Behavior', 'Category', 'Status', 'Tasks', 'Tests', 'Evidence', 'Closed']);
      assert.match(text(await p.page.locator('.counts').textContent()), zh ? /^\d+ 个行为 · \d+ 个闭环 · \d+ 个未闭环$/ : /^\d+ behaviors? · \d+ closed · \d+ open$/);
      // A missing test's mark is in the view's language, not English from the style sheet.
      const mark = await p.page.evaluate(`getComputedStyle(document.querySelector('.c-tests .ref-missing'), '::after').content`);
      assert.equal(mark, zh ? '" （缺失）"' : '" (missing)"');
      await p.settle(150);
      await p.screenshot(`matrix-${language}`);
      await p.finish();
    });
  }
});
