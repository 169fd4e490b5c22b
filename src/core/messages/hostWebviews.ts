import type { MessageTable } from './catalogTypes';

/** What the extension's host shows in src/host/webviews, in English and Chinese. */
export const hostWebviewsMessages = {
  'host.webviews.loom': { en: 'Loom: {feature}', zh: 'Loom：{feature}' },
  'host.webviews.traceability': { en: 'Traceability: {feature}', zh: '追踪：{feature}' },
  'host.webviews.specNoLongerExists': { en: 'This spec no longer exists.', zh: '此规格已不存在。' },
  'host.webviews.specCouldNotReadSee': { en: 'This spec could not be read: see the Loom log.', zh: '无法读取此规格：请查看 Loom 日志。' },
  'host.webviews.dashboardWhichSpec': { en: 'Dashboard of which spec?', zh: '显示哪个规格的仪表板？' },
  'host.webviews.traceabilityWhichSpec': { en: 'Traceability of which spec?', zh: '查看哪个规格的追踪矩阵？' },
  'host.webviews.doesNotExist': { en: '{path} does not exist.', zh: '{path} 不存在。' },
  'host.webviews.executingEngineNotRunningSpec': { en: 'The executing engine is not running for this spec.', zh: '此规格的执行引擎未在运行。' },
  'host.webviews.exportTraceabilityMatrix': { en: 'Export the traceability matrix', zh: '导出追踪矩阵' },
  'host.webviews.exportedRows': { en: 'Exported {rows} rows to {asRelativePath}.', zh: '已将 {rows} 行导出到 {asRelativePath}。' },
} as const satisfies MessageTable;
