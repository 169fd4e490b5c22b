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
  'testReport.reasons': { en: '## Why it fails', zh: '## 判定依据' },
  'testReport.evidence': { en: '## Evidence receipt', zh: '## 证据' },
  // The receipt's value when the test command ran out of time: not a number, so never an exit code of 0.
  'testReport.noExitCode': { en: 'none (timed out)', zh: '无（超时）' },
  'testReport.verdict': { en: 'verdict: {verdict}', zh: '结论：{verdict, select, PASS {通过} other {不通过}}' },
} as const satisfies MessageTable;
