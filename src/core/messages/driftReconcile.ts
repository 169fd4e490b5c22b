import type { MessageTable } from './catalogTypes';

/** Moving a synced spec's drift baseline: Accept as Accurate, Reconcile (src/core/drift/baselineMove.ts and its surfaces). */
export const driftReconcileMessages = {
  'drift.summary.unreadable': {
    en: '{file} cannot be read: whether the spec drifted is unknown (fix the file; Loom does not write it)',
    zh: '{file} 无法读取：无法判断规格是否漂移（请修复该文件；Loom 不会写入它）',
  },
  'drift.accept.noReason': {
    en: 'Accept as Accurate for {specDir} needs a reason: say why the code as it is now is what the spec means.',
    zh: '{specDir} 的“确认准确”需要理由：请说明为何现在的代码就是规格的本意。',
  },
  'drift.accept.personRequired': {
    en: "Accept as Accurate for {specDir} is a person's act, and loom.approvals.requirePerson takes no agent's word for it: the person accepts it in the editor or at a terminal.",
    zh: '{specDir} 的“确认准确”须由本人完成，loom.approvals.requirePerson 不接受代理的转述：请本人在编辑器或终端中确认。',
  },
  'drift.accept.noCommit': {
    en: '{specDir} is not in a git repository with a commit: there is no commit to move the baseline to.',
    zh: '{specDir} 不在有提交的 git 仓库中：没有可作为基线的提交。',
  },
  'drift.accept.noState': {
    en: '{specDir} has no pipeline.state.json: the baseline is recorded there, so there is nothing to move.',
    zh: '{specDir} 没有 pipeline.state.json：基线记录在其中，无从移动。',
  },
  'drift.accept.notSynced': {
    en: '{specDir} is at {stage}, not at {sync}: only a synced spec has a baseline to move.',
    zh: '{specDir} 处于 {stage}，不在 {sync}：只有已同步的规格才有可移动的基线。',
  },
  'drift.accept.noSyncStage': { en: 'The pipeline {pipeline} has no stage that syncs: its specs have no drift baseline.', zh: '流水线 {pipeline} 没有同步阶段：其规格没有漂移基线。' },
  'drift.accept.done': {
    en: '{specDir}: the baseline is now {commit} ({source} by {by}: {reason})',
    zh: '{specDir}：基线现为 {commit}（{by} {source}：{reason}）',
  },
  'drift.source.accepted': { en: 'accepted as accurate', zh: '确认准确' },
  'drift.source.reconciled': { en: 'reconciled', zh: '已调和' },
  'host.drift.acceptTitle': { en: 'Accept {specDir} as accurate', zh: '确认 {specDir} 准确' },
  'host.drift.acceptPrompt': {
    en: 'Why is the code as it is now what the spec means? (recorded with your name beside the new baseline)',
    zh: '为何现在的代码就是规格的本意？（与你的名字一起记录在新基线旁）',
  },
  'host.drift.acceptReasonNeeded': { en: 'Say why: the reason is recorded with the baseline.', zh: '请说明理由：理由会与基线一起记录。' },
  'host.drift.acceptWhichSpec': { en: 'Which synced spec is accurate as the code is now?', zh: '哪个已同步的规格与现在的代码一致？' },
  'host.drift.diffWhichFile': { en: 'Which file of {specDir} changed since its baseline?', zh: '{specDir} 基线以来变更的哪个文件？' },
  'host.drift.notDrifted': { en: '{specDir} has no drift in {file} to show.', zh: '{specDir} 的 {file} 没有可显示的漂移。' },
  'host.drift.diffTitle': { en: '{file} (baseline {commit} ↔ working tree)', zh: '{file}（基线 {commit} ↔ 工作区）' },
  'reconcile.requirementDropped': {
    en: 'requirements.json drops {id}: a reconcile keeps every requirement id (its behaviors marked superseded when the code no longer has them)',
    zh: 'requirements.json 删除了 {id}：调和必须保留每个需求 id（代码不再具备的行为标记为 superseded）',
  },
  'reconcile.behaviorDropped': {
    en: 'requirements.json drops the behavior {id}: keep it with "status": "superseded" when the code no longer has it, never delete it',
    zh: 'requirements.json 删除了行为 {id}：代码不再具备时请保留并设为 "status": "superseded"，不要删除',
  },
  'host.drift.reconciled': {
    en: 'Wrote {files} in {specDir}, and moved its baseline to HEAD: the spec says again what the code does.',
    zh: '已在 {specDir} 写入 {files}，并把基线移到 HEAD：规格重新与代码一致。',
  },
  'host.drift.nothingToReconcile': { en: '{specDir} has nothing to reconcile: {summary}.', zh: '{specDir} 无需调和：{summary}。' },
  'host.drift.readingDiff': { en: 'Reading what the code did since the baseline…', zh: '正在读取基线以来的代码变化…' },
  'host.drift.modelPurpose': { en: 'Loom reconciles a synced spec with its code', zh: 'Loom 将已同步的规格与代码调和' },
  'host.drift.reconcileNeedsModel': {
    en: 'Reconcile needs a language model, and none is available: install or sign in to a chat model provider (or Accept as Accurate instead).',
    zh: '调和需要语言模型，但当前没有可用模型：请安装或登录聊天模型提供方（或改用“确认准确”）。',
  },
  'cli.drift.acceptNeedsSpec': {
    en: 'drift --accept needs --spec-dir D and --reason "why the code is what the spec means"',
    zh: 'drift --accept 需要 --spec-dir D 和 --reason "为何代码就是规格的本意"',
  },
  'cli.drift.reasonOnlyWithAccept': { en: '--reason is taken only with drift --accept', zh: '--reason 只能与 drift --accept 一起使用' },
} as const satisfies MessageTable;
