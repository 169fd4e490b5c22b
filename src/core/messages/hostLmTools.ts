import type { MessageTable } from './catalogTypes';

/** What the extension's host shows in src/host/lmTools, in English and Chinese. */
export const hostLmToolsMessages = {
  'host.lmTools.userHasNotConfirmedStep': {
    en: 'the user has not confirmed this step; call the tool again so that VS Code asks them',
    zh: '用户尚未确认这一步；请再次调用该工具，让 VS Code 询问用户',
  },
  'host.lmTools.approved': { en: '{featureOf}: {from} approved → {to}', zh: '{featureOf}：已批准 {from} → {to}' },
  'host.lmTools.checkingWhereCanGoFrom': { en: 'Checking where {featureOf} can go from {stage}', zh: '正在检查 {featureOf} 从 {stage} 可以去往何处' },
  'host.lmTools.movingFrom': { en: 'Moving {featureOf} from {from} to {to}', zh: '正在把 {featureOf} 从 {from} 推进到 {to}' },
  'host.lmTools.checkingGate': { en: 'Checking the gate of {featureOf}', zh: '正在检查 {featureOf} 的关卡' },
  'host.lmTools.approving': { en: 'Approving {from} of {featureOf}', zh: '正在批准 {featureOf} 的 {from}' },
  'host.lmTools.refusedNothingWasWritten': { en: 'Refused, nothing was written: {message}', zh: '已拒绝，未写入任何内容：{message}' },
  'host.lmTools.pipelineStateJsonCannotRead': {
    en: 'pipeline.state.json cannot be read, so the stage is unknown: fix or restore the file (it is never overwritten).',
    zh: '无法读取 pipeline.state.json，因此阶段未知：请修复或恢复该文件（它绝不会被覆盖）。',
  },
  'host.lmTools.specHasFailedUserRecovers': { en: 'The spec has failed: the user recovers it to a stage with Loom: Recover.', zh: '该规格已失败：由用户通过 Loom: 恢复 把它恢复到某个阶段。' },
  'host.lmTools.changedAfterWasApprovedUser': {
    en: '{changed} changed after {stage} was approved: the user reviews the change and runs Loom: Approve Again.',
    zh: '{changed} 在 {stage} 批准之后发生了变化：由用户审阅变更并运行 Loom：重新批准。',
  },
  'host.lmTools.beforeCanMove': { en: 'Before it can move to {to}: {unmet}', zh: '推进到 {to} 之前需要：{unmet}' },
  'host.lmTools.readyMoveOnceUserAgrees': {
    en: 'Ready to move to {to} once the user agrees: show the user the outputs, then call #loomAdvance (VS Code asks the user to confirm).',
    zh: '用户同意后即可推进到 {to}：先向用户展示输出，再调用 #loomAdvance（VS Code 会请用户确认）。',
  },
  'host.lmTools.readyMoveCallLoomadvance': { en: 'Ready to move to {to}: call #loomAdvance.', zh: '可以推进到 {to}：调用 #loomAdvance。' },
  'host.lmTools.at': { en: '{featureOf} is at {stage}.', zh: '{featureOf} 处于 {stage}。' },
  'host.lmTools.loomSpecsCallAgainSpecdir': {
    en: '{candidatesCount} loom specs; call again with specDir for the details of one.',
    zh: '共 {candidatesCount} 个 loom 规格；带上 specDir 再次调用可查看其中一个的详情。',
  },
  'host.lmTools.tasksBatches': { en: '{featureOf}: {tasksCount} tasks in {batchesCount} batches.', zh: '{featureOf}：{tasksCount} 个任务，分为 {batchesCount} 个批次。' },
  'host.lmTools.agentAskedStepContinuingRecords': {
    en: 'The agent asked for this step; continuing records it in the stage history as confirmed by you.',
    zh: '这一步由智能体发起；继续后，阶段历史会记录为经你确认。',
  },
  'host.lmTools.notLoomSpecDirectoryWorkspace': {
    en: '{dir} is not a loom spec directory of this workspace; its specs are: {specs}',
    zh: '{dir} 不是此工作区的 loom 规格目录；此工作区的规格有：{specs}',
  },
  'host.lmTools.workspaceHasSeveralLoomSpecs': {
    en: 'This workspace has several loom specs: call the tool again with specDir set to one of them.',
    zh: '此工作区有多个 loom 规格：请把 specDir 设为其中之一后再次调用该工具。',
  },
  'host.lmTools.traceabilityCannotBuiltCannotRead': {
    en: 'The traceability of {specDir} cannot be built: {unreadable} cannot be read. Fix the file first; Loom never overwrites it.',
    zh: '无法构建 {specDir} 的追踪矩阵：无法读取 {unreadable}。请先修复该文件；Loom 绝不会覆盖它。',
  },
  'host.lmTools.behaviorsClosed': { en: '{featureOf}: {closed} of {behaviors} behaviors closed.', zh: '{featureOf}：{behaviors} 个行为中已闭合 {closed} 个。' },
  'host.lmTools.problemsThemErrors': { en: '{total} problems, {errors} of them errors.', zh: '{total} 个问题，其中 {errors} 个是错误。' },
} as const satisfies MessageTable;
