import type { MessageTable } from './catalogTypes';
import { translator } from './translator';

/** The dashboard's drift section (webview-ui/dashboard/drift.ts), in both languages; the core's catalog includes it. */
export const driftViewMessages = {
  'view.drift.title': { en: 'Drift from the code', zh: '与代码的漂移' },
  'view.drift.baseline': { en: 'Baseline {commit}', zh: '基线 {commit}' },
  'view.drift.source.synced': { en: 'recorded when the spec reached synced', zh: '规格进入 synced 时记录' },
  'view.drift.source.inferred': { en: 'inferred from git history', zh: '由 git 历史推断' },
  'view.drift.source.accepted': { en: 'accepted as accurate by {by}', zh: '由 {by} 确认准确' },
  'view.drift.source.reconciled': { en: 'reconciled by {by}', zh: '由 {by} 调和' },
  'view.drift.files': { en: 'Files changed since the baseline', zh: '基线以来变更的文件' },
  'view.drift.commits': { en: 'Commits since the baseline', zh: '基线以来的提交' },
  'view.drift.col.file': { en: 'File', zh: '文件' },
  'view.drift.col.change': { en: 'Change', zh: '变更' },
  'view.drift.col.commits': { en: 'Commits', zh: '提交' },
  'view.drift.col.why': { en: 'Spoken for by', zh: '相关' },
  'view.drift.change.modified': { en: 'modified', zh: '已修改' },
  'view.drift.change.added': { en: 'added', zh: '已新增' },
  'view.drift.change.deleted': { en: 'deleted', zh: '已删除' },
  'view.drift.change.renamed': { en: 'renamed to {to}', zh: '已重命名为 {to}' },
  'view.drift.showDiff': { en: 'Show diff', zh: '显示差异' },
  'view.drift.showDiffTitle': { en: '{file} from the baseline {commit} to the working tree', zh: '{file}：从基线 {commit} 到工作区' },
  'view.drift.goneTest': { en: '{file} is gone: {behaviors} no longer have their test', zh: '{file} 已不存在：{behaviors} 失去了测试' },
  'view.drift.reconcile': { en: 'Reconcile with the Model', zh: '用模型调和' },
  'view.drift.reconcileTitle': {
    en: 'The model proposes the smallest amendment of the spec (ids kept, a lost behavior superseded), checked and shown before anything is written',
    zh: '由模型提出对规格最小的修订（保留 id，失去的行为标记为 superseded），写入前会检查并展示',
  },
  'view.drift.accept': { en: 'Accept as Accurate', zh: '确认准确' },
  'view.drift.acceptTitle': {
    en: 'The code as it is now is what the spec means: move the baseline to HEAD, with your name and reason',
    zh: '现在的代码就是规格的本意：把基线移到 HEAD，并记录你的名字和理由',
  },
} as const satisfies MessageTable;

/** A label of the drift section in the page's language. */
export const tvDrift = translator(driftViewMessages);
