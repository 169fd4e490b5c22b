import type { MessageTable } from './catalogTypes';

/**
 * `test-report.md` as the core writes it (src/core/executing/evidence/testReport.ts), in the
 * spec's language. The verdict line is read back by the guards (verdict: PASS, or 结论：通过).
 */
export const testReportTextMessages = {
  'testReport.title': { en: '# Test report: {spec}', zh: '# 测试报告: {spec}' },
  'testReport.writtenBy': { en: '> Written by Loom {time}', zh: '> 由 Loom 生成 {time}' },
  'testReport.finished': { en: '## Finished tasks', zh: '## 已完成的 task' },
  'testReport.skipped': { en: '## Skipped tasks', zh: '## 跳过的 task' },
  'testReport.reporterReport': { en: "## The test reporter's report", zh: '## Test reporter 的报告' },
  'testReport.requirements': { en: '## Requirements', zh: '## 需求' },
  'testReport.requirementsHeader': { en: '| Requirement | Behaviors | Traceability |', zh: '| 需求 | Behavior | 追溯 |' },
  'testReport.closed': { en: 'closed', zh: '闭环' },
  'testReport.open': { en: 'open', zh: '未闭环' },
  'testReport.failureWord': {
    en: 'the report says "{word}" on line {line} of its text: loom refuses a passing test-report.md with a failure word (FAIL, failed, 失败, 不通过, in any case) unless it is a known warning; say what passed instead (e.g. "12 passed")',
    zh: '报告正文第 {line} 行写了 "{word}"：loom 拒绝含失败字样（FAIL、failed、失败、不通过，不区分大小写）的通过报告，除非是已知警告；请改为说明通过了什么（例如 "12 个通过"）',
  },
  'testReport.reasons': { en: '## Why it fails', zh: '## 判定依据' },
  'testReport.evidence': { en: '## Evidence receipt', zh: '## 证据' },
  // The receipt's value when the test command ran out of time: not a number, so never an exit code of 0.
  'testReport.noExitCode': { en: 'none (timed out)', zh: '无（超时）' },
  'testReport.verdict': { en: 'verdict: {verdict}', zh: '结论：{verdict, select, PASS {通过} other {不通过}}' },
} as const satisfies MessageTable;
