import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { renderTestReport, type TestReportInput } from '../../../src/core/executing/evidence/testReport';
import { renderFixInstructions } from '../../../src/core/executing/dispatch/fixInstructions';
import { compactHandoffIndex, type UpstreamEntry } from '../../../src/core/executing/taskHandoff';
import { deletedTestFixItems, failedTestRunFixItem, noStatusFixItem, testRunStatus } from '../../../src/core/executing/machine/taskAttempt';
import { missingTestFixItems } from '../../../src/core/executing/evidence/behaviorClosure';
import { describeBreakerChoice, isBreakerChoice } from '../../../src/core/executing/machine/circuitBreaker';
import type { TestRun } from '../../../src/core/executing/evidence/testRunner';
import { parseReport } from '../../../src/core/files/report';
import { t } from '../../../src/core/messages';
import { inChinese } from '../../helpers/displayLanguage';

// The texts the executing stage writes for its subagents and into its files come from the catalog,
// in the spec's language. The expected texts are those the stage wrote before they moved there.

const failing: TestReportInput = {
  specName: 'x',
  verdict: 'FAIL',
  reporterText: 'All fine.\nverdict: PASS',
  reasons: ['r1'],
  finishedTasks: ['T1'],
  requirements: [],
  skippedTasks: ['T3'],
  evidence: { file: 'evidence/t.log', sha256: 'c', command: 'npm test', exitCode: 1 },
  now: 'now',
  language: 'en',
};

describe('test-report.md in the spec language', () => {
  it('English, headings, receipt and verdict', () => {
    assert.equal(
      renderTestReport(failing),
      [
        '# Test report: x',
        '',
        '> Written by Loom now',
        '',
        '## Finished tasks',
        '',
        '- T1',
        '',
        '## Skipped tasks',
        '',
        '- T3',
        '',
        "## The test reporter's report",
        '',
        'All fine.',
        "reporter's verdict: PASS",
        '',
        '## Why it fails',
        '',
        '- r1',
        '',
        '## Evidence receipt',
        '',
        '- evidence-command: `npm test`',
        '- evidence-exit-code: 1',
        '- evidence-file: evidence/t.log',
        '- evidence-sha256: c',
        '',
        'verdict: FAIL',
        '',
      ].join('\n'),
    );
  });

  it('Chinese, whatever the display language; a timed-out run records no exit code, which never reads as 0', () => {
    const text = renderTestReport({
      ...failing,
      verdict: 'PASS',
      reporterText: '',
      reasons: [],
      finishedTasks: [],
      skippedTasks: [],
      evidence: { ...failing.evidence, exitCode: null },
      language: 'zh',
    });
    assert.equal(
      text,
      [
        '# 测试报告: x',
        '',
        '> 由 Loom 生成 now',
        '',
        '## 已完成的 task',
        '',
        '（无）',
        '',
        '## Test reporter 的报告',
        '',
        '（无）',
        '',
        '## 证据',
        '',
        '- evidence-command: `npm test`',
        '- evidence-exit-code: 无（超时）',
        '- evidence-file: evidence/t.log',
        '- evidence-sha256: c',
        '',
        '结论：通过',
        '',
      ].join('\n'),
    );
    const report = parseReport('test-report.md', text);
    assert.equal(report.verdict, 'PASS');
    assert.ok(Number.isNaN(report.evidence.exitCode));
    assert.match(renderTestReport({ ...failing, language: 'zh' }), /\n结论：不通过\n$/);
  });
});

describe('fix instructions and fix items in loom’s format', () => {
  const items = [{ problem: 'p', file: 'f.ts', location: 'l', severity: 'blocker', direction: 'd' }, { problem: 'q' }];

  it('English', () => {
    assert.equal(
      renderFixInstructions(items, 'en'),
      '## Fix instructions\n\n### Fix item 1\n- Problem: p\n- File: f.ts\n- Location: l\n- Severity: blocker\n- Direction: d\n\n### Fix item 2\n- Problem: q',
    );
  });

  it('the core’s own items, in each language', () => {
    assert.deepEqual(noStatusFixItem('en'), { problem: 'the last answer had no status line', direction: 'end with one status line: STATUS: DONE | DONE_WITH_CONCERNS | NEEDS_CONTEXT | BLOCKED' });
    assert.deepEqual(noStatusFixItem('zh'), { problem: '上一次回答没有状态行', direction: '以一行状态结束：状态：DONE | DONE_WITH_CONCERNS | NEEDS_CONTEXT | BLOCKED' });
    assert.deepEqual(deletedTestFixItems(['t/a.test.ts'], 'zh'), [{ problem: '测试文件 t/a.test.ts 被删除', file: 't/a.test.ts', severity: 'blocker', direction: '恢复该测试文件；禁止删除测试' }]);
    const timedOut = { command: 'npm test', exitCode: null, output: '', timedOut: true, durationMs: 1 } as TestRun;
    const failed = { ...timedOut, exitCode: 2, timedOut: false };
    assert.equal(testRunStatus(failed, 'en'), 'exit code 2');
    assert.equal(testRunStatus(failed, 'zh'), '退出码 2');
    assert.equal(failedTestRunFixItem(timedOut, 'evidence/l.log', 'en').problem, 'the test command npm test failed (timed out; log evidence/l.log)');
    assert.equal(failedTestRunFixItem(timedOut, 'evidence/l.log', 'zh').problem, '测试命令 npm test 失败（超时，日志 evidence/l.log）');
    const [zh] = missingTestFixItems(['B-1'], 'zh');
    assert.equal(zh.severity, '阻断');
    assert.equal(zh.direction, '编写覆盖 B-1 的持久化测试（测试名中写出 B-1），并在 ## 测试 中列出 `- B-1: 文件#测试名`；无法编写真实测试时回答 NEEDS_CONTEXT 或 BLOCKED');
    assert.equal(
      missingTestFixItems(['B-1'], 'en')[0].direction,
      "write a persistent test covering B-1 (name B-1 in the test's name) and list it under ## Tests as `- B-1: file#test name`; if no real test can be written, answer NEEDS_CONTEXT or BLOCKED",
    );
  });
});

describe('the compact index of upstream handoffs', () => {
  const entries: UpstreamEntry[] = [
    { task: 'T1', changed: [] },
    {
      task: 'T2',
      changed: ['a.ts'],
      handoff: {
        task_id: 'T2',
        status: 'done',
        summary: 'did  it',
        artifacts: Array.from({ length: 13 }, (_, i) => `f${i}.ts`),
        exported_interfaces: [{ name: 'f', path: 'f0.ts', signature: '(): void' }],
        breaking_changes: [],
        requirements_verified: [],
      },
    },
  ];
  const files = 'f0.ts, f1.ts, f2.ts, f3.ts, f4.ts, f5.ts, f6.ts, f7.ts, f8.ts, f9.ts, f10.ts, f11.ts, …';

  it('English and Chinese', () => {
    assert.equal(
      compactHandoffIndex(entries, 'en'),
      `- T1: no handoff (check the source directly)\n- T2 (done): did it\n  artifacts: ${files}\n  exports: f (f0.ts) (): void\n  note: changed after that task finished, check the source: a.ts`,
    );
    assert.equal(
      compactHandoffIndex(entries, 'zh'),
      `- T1：没有 handoff（请直接核对源码）\n- T2 (done): did it\n  产物: ${files}\n  导出: f (f0.ts) (): void\n  注意：以下文件在该 task 完成后又被修改，请核对源码: a.ts`,
    );
  });
});

describe('how a run ends, in the display language', () => {
  it('counts finished and skipped tasks with their plural forms', () => {
    assert.equal(t('run.completed', { finished: 1, skipped: 0 }), '1 task done; test report PASS; handoffs/executing.json written');
    assert.equal(t('run.completed', { finished: 3, skipped: 2 }), '3 tasks done, 2 skipped; test report PASS; handoffs/executing.json written');
    inChinese(() => {
      assert.equal(t('run.completed', { finished: 3, skipped: 0 }), '3 个 task 已完成；测试报告 PASS；已写入 handoffs/executing.json');
      assert.equal(t('run.completed', { finished: 3, skipped: 1 }), '3 个 task 已完成，跳过 1 个；测试报告 PASS；已写入 handoffs/executing.json');
      assert.equal(t('run.cancelled'), '已取消；再次开始时将从各 task 的状态继续运行');
    });
  });

  it('the breaker’s choices', () => {
    assert.equal(describeBreakerChoice('B', 'en'), "I'll fix it by hand; tell me when to continue");
    assert.equal(describeBreakerChoice('C', 'zh'), '跳过此 task，继续后续 task（需确认影响）');
    assert.deepEqual(['A', 'B', 'C', 'D', 'constructor', undefined].map(isBreakerChoice), [true, true, true, false, false, false]);
  });
});

describe('one language table', () => {
  const SRC = resolve(__dirname, '../../../src');
  const CATALOG_DIRS = [join(SRC, 'core/messages'), join(SRC, 'shared/messages')];
  const sources = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));

  it('no sentence is chosen by a language ternary or kept in an {en, zh} record outside the catalog', () => {
    const found: string[] = [];
    for (const file of sources(SRC)) {
      if (CATALOG_DIRS.some((dir) => file.startsWith(dir))) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/\bzh\s*\?|['"]zh['"]\s*\?|\bzh:\s*['"`]/.test(line)) found.push(`${relative(SRC, file)}:${i + 1}: ${line.trim()}`);
        });
    }
    assert.deepEqual(found, [], 'these belong in src/core/messages');
  });
});
