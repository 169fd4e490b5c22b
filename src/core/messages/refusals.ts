import type { MessageTable } from './catalogTypes';

/** Why the pipeline did not take an event (src/core/pipeline/refusals.ts), said once for every surface. */
export const refusalMessages = {
  'refusal.noAnswer': { en: '{specDir}: the pipeline did not answer {event}', zh: '{specDir}：流水线没有回应 {event}' },
  'refusal.convergence.escalate': {
    en: 'convergence-pass: round {round} of {max} did not converge; escalate: fail the spec or close the gaps by hand',
    zh: 'convergence-pass：第 {round} 轮（共 {max} 轮）未收敛；请升级处理：将规格标记为失败，或手动补齐缺口',
  },
  'refusal.convergence.anotherRound': {
    en: 'convergence-pass: round {round} needs another round; go back to executing',
    zh: 'convergence-pass：第 {round} 轮需要再来一轮；请回到 executing',
  },
  'refusal.convergence.anotherRoundTasks': {
    en: 'convergence-pass: round {round} needs another round ({tasks} appended); go back to executing',
    zh: 'convergence-pass：第 {round} 轮需要再来一轮（已追加 {tasks}）；请回到 executing',
  },
  'refusal.specFailed': { en: '{specDir} has failed; recover it to a stage first ({targets})', zh: '{specDir} 已失败；请先将其恢复到某个阶段（{targets}）' },
  'refusal.humanApprovalGate': {
    en: '{specDir} is at {stage}, a human-approval gate: Advance does not pass it; approve it once its outputs are reviewed',
    zh: '{specDir} 处于 {stage}，这是人工批准关卡：推进不会越过它；审阅其产出后请批准',
  },
  'refusal.noGate': { en: '{specDir} has no gate to approve at {stage}', zh: '{specDir} 在 {stage} 没有可批准的关卡' },
  'refusal.cannotComplete': { en: '{specDir} cannot complete {stage}', zh: '{specDir} 无法完成 {stage}' },
  'refusal.pipelineEnd': { en: '{specDir} is at {stage}, the end of the {pipeline} pipeline', zh: '{specDir} 处于 {stage}，已是 {pipeline} 流水线的终点' },
  'refusal.lastStageBackOnly': {
    en: '{specDir} is at {stage}, the last stage of the {pipeline} pipeline; it can only go back to {targets} when you name the stage',
    zh: '{specDir} 处于 {stage}，这是 {pipeline} 流水线的最后一个阶段；只有指明阶段时才能退回到 {targets}',
  },
  'refusal.notAllowed': { en: '{from} cannot move to {to}; allowed: {allowed}', zh: '{from} 不能进入 {to}；允许：{allowed}' },
  'refusal.reapprovalNeeded': {
    en: 'Re-approval needed before {specDir} can move from {from} to {to}: review the changes, then approve the gate again (or restore the approved files)',
    zh: '{specDir} 从 {from} 进入 {to} 之前需要重新批准：请审阅改动，再次批准该关卡（或恢复已批准的文件）',
  },
  'refusal.cannotMove': { en: '{specDir} cannot move from {from} to {to}', zh: '{specDir} 无法从 {from} 进入 {to}' },
  'refusal.failNeedsReason': { en: 'a failure needs a reason', zh: '标记失败需要说明原因' },
  'refusal.alreadyFailed': { en: '{specDir} has already failed', zh: '{specDir} 已经失败' },
  'refusal.cannotFail': { en: '{stage} is the end of the pipeline and cannot fail', zh: '{stage} 是流水线的终点，不能标记为失败' },
  'refusal.notFailed': { en: '{specDir} has not failed (it is at {stage})', zh: '{specDir} 并未失败（当前处于 {stage}）' },
  'refusal.recoverTargets': { en: 'a failed spec can recover to {targets}, not {to}', zh: '失败的规格可以恢复到 {targets}，不能恢复到 {to}' },
  'refusal.cannotRecover': { en: '{specDir} cannot recover to {to}', zh: '{specDir} 无法恢复到 {to}' },
  'refusal.noStaleApproval': { en: '{specDir} has no stale approval to renew', zh: '{specDir} 没有需要更新的过期审批' },
  'refusal.nameStaleApproval': {
    en: '{specDir} has stale approvals of {stages}; name the stage to approve again',
    zh: '{specDir} 有多个过期审批（{stages}）；请指明要重新审批的阶段',
  },
  'refusal.reapproveCurrent': {
    en: '{stage} is the current stage: its approval is renewed by approving it (Advance with confirmation)',
    zh: '{stage} 是当前阶段：通过审批该阶段（确认后推进）来更新其审批',
  },
  'refusal.approvalNotStale': { en: 'the approval of {stage} is not stale; stale: {stale}', zh: '{stage} 的审批未过期；已过期的是：{stale}' },
  'refusal.cannotReapprove': { en: '{specDir} cannot approve {stage} again', zh: '{specDir} 无法重新审批 {stage}' },
} as const satisfies MessageTable;
