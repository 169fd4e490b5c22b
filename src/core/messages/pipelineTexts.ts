import type { MessageTable } from './catalogTypes';

/**
 * The descriptions of loom's pipeline.schema.json in both languages, keyed by stage
 * (`stage.<id>`), by transition (`transition.<from>.<to>`) and by precondition
 * (`precondition.<stage>.<n>`, n counting from 1 in the schema's order). The Chinese text is
 * loom's own, word for word: `schemaTexts.ts` shows the English one only when the schema still
 * says exactly that, so a description a team edited is shown as they wrote it.
 */
export const pipelineTextMessages = {
  'stage.brainstorming': { en: 'Brainstorm the requirement and explore 2–3 ways to build it', zh: '需求头脑风暴，探索 2-3 种实现方案' },
  'stage.detail-expansion': {
    en: 'Expand the behavior checklist along the 15 fixed dimensions, completing test_plan and applicability',
    zh: '按 15 固定维度展开 behavior 强制清单，补齐 test_plan 与 applicability',
  },
  'stage.planning': { en: "Break the work into tasks along the project's architecture layers", zh: '按项目架构分层拆解 task' },
  'stage.analyze-artifacts': {
    en: 'Read-only cross-artifact consistency analysis after planning, before approval (15 dimensions)',
    zh: 'planning 后审批前跨产物一致性只读分析（15 项维度）',
  },
  'stage.approved': { en: 'The user has approved the plan; waiting for execution (a checkpoint)', zh: '用户已确认计划，等待执行（检查点状态）' },
  'stage.git-worktree': { en: 'Create an isolated branch', zh: '创建隔离分支' },
  'stage.executing': { en: 'Subagents write the code (isolated dispatch, combined review, incremental fixes)', zh: 'Subagent 编码执行（隔离派发 + 合并审查 + 增量修复）' },
  'stage.converge': {
    en: 'Classify coverage against the intent checklist; missing/partial go back to executing (may call omission-hunter)',
    zh: '对照意图清单分类覆盖度，missing/partial 回流 executing，内部可调用 omission-hunter',
  },
  'stage.verification': {
    en: 'Verify before completion (prior outputs, build, placeholder scan, type consistency, final consistency)',
    zh: '完成前验证（前置产出核验、编译验证、占位符扫描、类型一致性、最终一致性核验）',
  },
  'stage.code-review-request': { en: 'Two-axis pre-review (Standards + Spec), then write the code review request', zh: '双轴预审查（Standards + Spec）后生成代码审查请求' },
  'stage.review-gate': { en: "The review request is out; waiting for the reviewer's feedback", zh: '审查请求已发出，等待审查者反馈到达后继续' },
  'stage.code-review-response': {
    en: 'Handle the review feedback: fix BLOCKERs, accept or decline SUGGESTIONs, discuss; rerun the tests after fixing',
    zh: '处理审查反馈：修复 BLOCKER / 采纳或拒绝 SUGGESTION / 讨论沟通，修复后重跑测试',
  },
  'stage.synced': { en: 'Sync codegraph and update structured memory; the feature is done', zh: 'codegraph 同步与结构化记忆更新，功能开发完成' },
  'stage.failed': { en: 'The pipeline failed (at any stage)', zh: '流水线失败（任意阶段）' },

  // A way on is shown under its checks whether or not they hold: its words say when it is taken, never claim it is so.
  'transition.brainstorming.detail-expansion': { en: 'Once the user confirms spec.md: expand the behavior dimensions', zh: '用户确认 spec.md，进入 behavior 维度展开' },
  'transition.brainstorming.failed': { en: 'Brainstorming failed', zh: 'brainstorming 失败' },
  'transition.detail-expansion.planning': {
    en: 'Once the behavior checklist is complete with no requires-clarification left: break down the plan',
    zh: 'behavior 清单补齐且无 requires-clarification 残留，进入计划拆解',
  },
  'transition.detail-expansion.failed': { en: 'Detail expansion failed or requires-clarification is unresolved', zh: 'detail-expansion 失败或 requires-clarification 未解决' },
  'transition.planning.analyze-artifacts': { en: 'Once the user confirms plan.md: analyze cross-artifact consistency', zh: '用户确认 plan.md，进入跨产物一致性分析' },
  'transition.planning.failed': { en: 'Planning failed', zh: 'planning 失败' },
  'transition.analyze-artifacts.approved': { en: 'Once artifact-analysis.json has no blocker: on to the approval gate', zh: 'artifact-analysis.json 无 blocker，进入审批门禁' },
  'transition.analyze-artifacts.failed': { en: 'The artifact analysis found a blocker or failed to run', zh: 'analyze-artifacts 发现 blocker 或执行失败' },
  'transition.approved.git-worktree': { en: 'The user runs loom-execute-plan', zh: '用户执行 loom-execute-plan' },
  'transition.approved.failed': { en: 'The pre-execution checks failed', zh: '执行前检查失败' },
  'transition.git-worktree.executing': { en: 'Once the worktree is created: start the subagents', zh: 'worktree 创建成功，触发 subagent' },
  'transition.git-worktree.failed': { en: 'Creating the worktree failed', zh: 'worktree 创建失败' },
  'transition.executing.converge': { en: 'Once every task is done: check convergence', zh: '所有 task 完成，进入收敛检查' },
  'transition.executing.failed': { en: 'Tests failed or a task is BLOCKED', zh: '测试失败或 BLOCKED 状态' },
  'transition.converge.verification': { en: 'Once convergence-report.json has no blocker: on to verification', zh: 'convergence-report.json 无 blocker，进入验证' },
  'transition.converge.executing': {
    en: 'Missing/partial behaviors become new tasks and go back to executing to be fixed (incremental mode)',
    zh: 'missing/partial 生成新 task 回流 executing 修复（增量模式）',
  },
  'transition.converge.failed': { en: 'Convergence found a critical deviation or did not converge within 3 rounds', zh: 'converge 发现 critical 偏差或超过 3 轮未收敛' },
  'transition.verification.synced': { en: 'Once verification passes: sync and finish', zh: '验证通过' },
  'transition.verification.executing': {
    en: 'BLOCKERs go back to the implementer to be fixed (incremental mode: only the fix instructions and the subagent context are sent)',
    zh: 'BLOCKER 派回 implementer 修复（增量模式：只传递修复指令 + subagent-context）',
  },
  'transition.verification.failed': { en: 'Verification found a critical deviation', zh: '验证发现 Critical 偏差' },
  'transition.failed.brainstorming': { en: 'Start again from the beginning', zh: '从头重新开始' },
  'transition.failed.executing': { en: 'Retry execution after fixing', zh: '修复后重试执行' },
  'transition.failed.verification': { en: 'Retry verification after fixing', zh: '修复后重试验证' },

  'precondition.brainstorming.1': { en: 'The user has described the requirement', zh: '用户提供需求描述' },
  'precondition.detail-expansion.1': { en: 'spec.md and requirements.json exist', zh: 'spec.md 和 requirements.json 存在' },
  'precondition.planning.1': { en: 'spec.md and requirements.json exist and the user has confirmed them', zh: 'spec.md 和 requirements.json 存在且用户已确认' },
  'precondition.analyze-artifacts.1': {
    en: 'spec.md, requirements.json, plan.md, the tasks folder and traceability.json exist',
    zh: 'spec.md、requirements.json、plan.md、tasks 目录和 traceability.json 存在',
  },
  'precondition.approved.1': {
    en: 'plan.md, the tasks folder and traceability.json exist and the user has confirmed them',
    zh: 'plan.md、tasks 目录和 traceability.json 存在且用户已确认',
  },
  'precondition.approved.3': { en: 'artifact-analysis.json exists and has no blocker', zh: 'artifact-analysis.json 存在且无 blocker' },
  'precondition.executing.1': { en: 'plan.md, the tasks folder and traceability.json exist', zh: 'plan.md、tasks 目录和 traceability.json 存在' },
  'precondition.executing.2': { en: 'The worktree has been created', zh: 'worktree 已创建' },
  'precondition.converge.1': { en: 'test-report.md exists and its verdict is PASS', zh: 'test-report.md 存在且结论为 PASS' },
  'precondition.verification.2': { en: 'requirements.json and traceability.json exist and can be checked', zh: 'requirements.json 与 traceability.json 存在并可校验' },
  'precondition.verification.3': { en: 'convergence-report.json exists and has no blocker', zh: 'convergence-report.json 存在且无 blocker' },
  'precondition.verification.4': { en: "The combined reviewer's report exists and passes", zh: 'combined-reviewer 报告存在且判定为通过' },
  'precondition.code-review-request.1': { en: 'verify-report.md exists and verification passed', zh: 'verify-report.md 存在且验证通过' },
  'precondition.code-review-request.2': { en: 'spec.md exists', zh: 'spec.md 存在' },
  'precondition.review-gate.1': { en: 'review-request.md exists', zh: 'review-request.md 存在' },
  'precondition.review-gate.2': { en: 'review-feedback.md exists', zh: 'review-feedback.md 存在' },
  'precondition.code-review-response.1': { en: 'review-request.md and review-feedback.md exist', zh: 'review-request.md 和 review-feedback.md 存在' },
  'precondition.synced.2': { en: 'All tests pass', zh: '所有测试通过' },
} as const satisfies MessageTable;
