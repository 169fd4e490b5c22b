import type { MessageTable } from './catalogTypes';

/** The executing stage's words a person reads: the circuit breaker's report and its reasons. */
export const executingMessages = {
  'breaker.reason.retries': {
    en: 'review failed {count, plural, one {{count} time} other {{count} times}} (max_retries {max})',
    zh: '审查失败 {count} 次（max_retries {max}）',
  },
  'breaker.reason.timeout': {
    en: 'the {role} timed out after {minutes, plural, one {{minutes} minute} other {{minutes} minutes}} (timeout_minutes); a timed-out task is never retried automatically',
    zh: '{role} 在 {minutes} 分钟后超时（timeout_minutes）；超时的 task 不会自动重试',
  },
  'breaker.reason.conflict': {
    en: 'merging it into the feature branch conflicts in {files}; [B] fixes the conflict by hand in its worktree',
    zh: '将其合并到功能分支时在 {files} 中冲突；[B] 在其 worktree 中手动解决冲突',
  },
  'breaker.reason.mergeBlocked': {
    en: 'its merge would overwrite uncommitted changes in the feature worktree: {files}; commit or undo them there first',
    zh: '合并它会覆盖功能 worktree 中未提交的修改：{files}；请先在那里提交或撤销这些修改',
  },
  'breaker.reason.outsideOwns': {
    en: 'it changed files outside its owns: {files}; [B] undoes them by hand in its worktree',
    zh: '它修改了 owns 以外的文件：{files}；[B] 在其 worktree 中手动撤销这些修改',
  },
  'task.stepFailed': { en: '{task} could not go on: {detail}', zh: '{task} 无法继续：{detail}' },
  // A task's actor failed where no rule expected it (src/core/executing/machine/runFailures.ts).
  'task.unexpectedStop': {
    en: '{task} stopped at its {step} step: {detail}. Its work is kept; Run Tasks resumes it from that step',
    zh: '{task} 停在了{step}步骤：{detail}。它的工作已保留；Run Tasks 会从该步骤继续',
  },
  'task.step.implement': { en: 'implementer', zh: '实现' },
  'task.step.review': { en: 'review', zh: '审查' },
  'task.step.close': { en: 'tests and checks', zh: '测试与检查' },
  'task.step.merge': { en: 'merge', zh: '合并' },
  // Review Changes and Rewind (src/core/executing/review/taskChanges.ts).
  'taskChange.noFeatureWorktree': {
    en: '{specDir} has no feature worktree of its own: checkpoints are made only there, never in the main checkout (Create Worktree first)',
    zh: '{specDir} 没有自己的功能 worktree：检查点只在那里创建，从不在主检出中创建（请先创建 worktree）',
  },
  'taskChange.unknownTask': { en: '{specDir} has no task {task}', zh: '{specDir} 中没有 task {task}' },
  'taskChange.noCheckpoint': {
    en: '{task} has no checkpoint yet: a checkpoint is made when the task is done in the feature worktree',
    zh: '{task} 还没有检查点：task 在功能 worktree 中完成时才会创建检查点',
  },
  'taskChange.fileNotInTask': { en: "{file} is not among {task}'s changes ({files})", zh: '{file} 不在 {task} 的修改中（{files}）' },
  'taskChange.notOnBranch': {
    en: 'the commit before {task} ({commit}) is no longer on the feature branch (it was rewritten by hand); nothing was rewound',
    zh: '{task} 之前的提交（{commit}）已不在功能分支上（已被手动改写）；未回退任何内容',
  },
  'ask.rewind.title': { en: 'Rewind {feature} to before {task}?', zh: '将 {feature} 回退到 {task} 之前？' },
  'ask.rewind.tasks': {
    en: 'Back to pending, their evidence and traceability entries taken back: {tasks}',
    zh: '以下 task 回到 pending，其证据与追溯条目被撤回：{tasks}',
  },
  'ask.rewind.files': { en: 'Files that go back to their state before {task} ({count}): {files}', zh: '回到 {task} 之前状态的文件（{count} 个）：{files}' },
  'ask.rewind.where': {
    en: 'The feature branch moves back in {worktree}; your other uncommitted changes stay, and the main checkout is not touched.',
    zh: '功能分支在 {worktree} 中回退；你的其他未提交修改保留，主检出不受影响。',
  },
  'ask.rewind.ok': { en: 'Rewind', zh: '回退' },
  'taskChange.busy': { en: '{specDir}: a rewind or a rejected file is still under way; try again when it has finished', zh: '{specDir}：回退或拒绝文件的操作仍在进行；请在其完成后重试' },
  // Written into the task's state, in the spec's language (the language of the loop's prompts).
  'breaker.blocker': { en: 'circuit breaker: {reason}', zh: '熔断：{reason}' },
  'breaker.blocker.replan': { en: '{blocker}; waiting for the task to be split and re-planned (choice A)', zh: '{blocker}；等待拆分此 task 并重新规划（选择 A）' },
  'breaker.blocker.manual': { en: '{blocker}; waiting for your manual fix (choice B)', zh: '{blocker}；等待你手动修复（选择 B）' },
  'breaker.report.title': { en: '## Circuit breaker: {task} {title}', zh: '## 熔断：{task} {title}' },
  'breaker.report.reason': { en: 'Reason: {reason}', zh: '原因：{reason}' },
  'breaker.report.lastIssues': { en: 'Last blocking issues:', zh: '最后的阻断问题：' },
  'breaker.report.noIssues': { en: '- (none recorded)', zh: '- （未记录）' },
  'breaker.report.finished': { en: 'Finished tasks:', zh: '已完成的 task：' },
  'breaker.report.none': { en: '(none)', zh: '（无）' },
  'breaker.report.dependents': { en: 'Tasks that depend on it: {tasks}', zh: '依赖它的 task：{tasks}' },
  'breaker.choice.A': { en: 'Split this task and re-plan', zh: '拆分此 task，重新规划后继续' },
  'breaker.choice.B': { en: "I'll fix it by hand; tell me when to continue", zh: '我来手动修复，修复完告诉我继续' },
  'breaker.choice.C': { en: 'Skip this task (after confirming its impact)', zh: '跳过此 task，继续后续 task（需确认影响）' },

  // How a run ended (src/core/executing/machine/executingMachine.ts).
  'run.cancelled': { en: 'cancelled; the run resumes from the task states when started again', zh: '已取消；再次开始时将从各 task 的状态继续运行' },
  'run.modelRefused': { en: 'the model refused the request: {detail}', zh: '模型拒绝了请求：{detail}' },
  'run.stoppedResumable': { en: '{why}; the run resumes from the task states when started again', zh: '{why}；再次开始时将从各 task 的状态继续运行' },
  'run.completed': {
    en: '{finished, plural, one {# task} other {# tasks}} done{skipped, plural, =0 {} other {, # skipped}}; test report PASS; handoffs/executing.json written',
    zh: '{finished} 个 task 已完成{skipped, plural, =0 {} other {，跳过 # 个}}；测试报告 PASS；已写入 handoffs/executing.json',
  },

  // Why Run Tasks does not start or stops (src/core/repository/specPipeline.ts runTasks).
  'run.noModel': {
    en: '{specDir}: no language model can run the tasks ({reason}); nothing was sent or written',
    zh: '{specDir}：没有可以运行 task 的语言模型（{reason}）；未发送也未写入任何内容',
  },
  'run.noTaskStage': { en: 'the {pipeline} pipeline has no stage that runs tasks', zh: '{pipeline} 流水线没有运行 task 的阶段' },
  'run.notAtTaskStage': { en: '{specDir} is at {stage}: tasks run at {taskStage}', zh: '{specDir} 处于 {stage}：task 在 {taskStage} 阶段运行' },
  'run.notAtTaskStageUnknown': { en: '{specDir} is at an unknown stage: tasks run at {taskStage}', zh: '{specDir} 所处的阶段未知：task 在 {taskStage} 阶段运行' },
  'run.alreadyRunning': { en: 'the tasks of {specDir} are already running', zh: '{specDir} 的 task 已在运行' },
  'run.leftWhileRunning': { en: '{specDir} left {stage} while its tasks were running; the run was stopped', zh: '{specDir} 在 task 运行期间离开了 {stage}；运行已停止' },
  // A model's streamed reply that failed midway (src/core/executing/dispatch/chatModel.ts).
  'model.replyBrokeOff': { en: "the model's reply broke off: {detail}", zh: '模型的回复中断了：{detail}' },
  'model.requestFailed': { en: 'the model request failed: {detail}', zh: '模型请求失败：{detail}' },

  // What Run Tasks checks before the loop starts (src/core/executing/preconditions.ts).
  'run.noExecutingStage': { en: 'the {pipeline} pipeline has no executing stage', zh: '{pipeline} 流水线没有 executing 阶段' },
  'run.worktreeMissing': { en: 'the feature worktree {path} does not exist', zh: '功能 worktree {path} 不存在' },
  // Named by what makes it (issue 49): the spec may be past git-worktree already, so "run the stage" is no remedy.
  'run.noWorktree': {
    en: 'the feature worktree does not exist: make it with Loom: Create Worktree (or loom-vscode worktree), then run the tasks again',
    zh: '功能 worktree 不存在：请用 Loom: Create Worktree（或 loom-vscode worktree）创建后再运行任务',
  },
  'run.fileMissing': { en: '{file} does not exist', zh: '{file} 不存在' },
  'run.fileUnreadable': { en: '{file} could not be read', zh: '{file} 无法读取' },
  'run.noTasks': { en: 'tasks/ holds no task files (T1.md, T2.md, ...)', zh: 'tasks/ 中没有任务文件（T1.md、T2.md……）' },
  'run.taskOwnsNothing': { en: '{task} owns no paths: the implementer could not write anything', zh: '{task} 没有 owns 路径：implementer 无法写入任何文件' },
  'run.stateCorrupt': { en: "{file} is corrupt, so the plan's approval cannot be read", zh: '{file} 已损坏，无法读取计划的审批' },
  'run.stateMissing': { en: '{file} does not exist, so no approval of the plan is recorded', zh: '{file} 不存在，因此没有记录计划的审批' },
  'run.specFailed': { en: 'the spec has failed ({reason}); recover it to executing first', zh: '规格已失败（{reason}）；请先将其恢复到 executing' },
  'run.noReason': { en: 'no reason recorded', zh: '未记录原因' },
  'run.unknownStage': { en: 'current_stage "{stage}" is not a stage of the {pipeline} pipeline', zh: 'current_stage "{stage}" 不是 {pipeline} 流水线的阶段' },
  'run.pastExecuting': { en: 'the spec is at {stage}, past executing; send it back to executing first', zh: '规格处于 {stage}，已越过 executing；请先将其退回 executing' },
  'run.planNotWritten': { en: 'the spec is at {stage}: the plan has not been written and approved yet', zh: '规格处于 {stage}：计划尚未编写和批准' },
  'run.planNotApproved': {
    en: 'the plan is not approved yet (the spec is at {stage}); approve it at {gate} with Loom: Advance first',
    zh: '计划尚未批准（规格处于 {stage}）；请先在 {gate} 用 Loom: 推进 批准它',
  },
  'run.unknownBehavior': { en: '{task} names behavior {behavior}, which requirements.json does not declare', zh: '{task} 引用了 behavior {behavior}，但 requirements.json 未声明它' },
  'run.behaviorNotMappedTo': {
    en: '{task}: behavior {behavior} is not mapped to {task} in traceability.json (it is mapped to {tasks})',
    zh: '{task}：traceability.json 中 behavior {behavior} 没有映射到 {task}（它映射到 {tasks}）',
  },
  'run.behaviorNotMapped': {
    en: '{task}: behavior {behavior} is not mapped to {task} in traceability.json (it has no task there)',
    zh: '{task}：traceability.json 中 behavior {behavior} 没有映射到 {task}（那里没有任何 task）',
  },
} as const satisfies MessageTable;
