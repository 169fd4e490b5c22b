import type { MessageTable } from './catalogTypes';

/**
 * What the spec's actor answers every surface (src/core/port): the question put to a person
 * before a step, worded once, and the refusals of the intents that are not moves.
 */
export const portMessages = {
  'ask.advance.title': { en: 'Leave {stage} of {feature} and move it to {to}?', zh: '离开 {feature} 的 {stage}，并推进到 {to}？' },
  'ask.approve.title': { en: 'Approve {stage} of {feature} and move it to {to}?', zh: '批准 {feature} 的 {stage}，并推进到 {to}？' },
  'ask.complete.title': { en: 'Complete {stage} of {feature}? Its pipeline ends here.', zh: '完成 {feature} 的 {stage}？其流水线到此结束。' },
  'ask.advance.ok': { en: 'Advance', zh: '推进' },
  'ask.approve.ok': { en: 'Approve', zh: '批准' },
  'ask.outputs': { en: 'Outputs of {stage}: {outputs}', zh: '{stage} 的产出：{outputs}' },
  'ask.noOutputs': { en: '{stage} has no file outputs.', zh: '{stage} 没有文件产出。' },
  'ask.next': { en: 'Next: {stage}.', zh: '下一步：{stage}。' },
  'ask.nextDescribed': { en: 'Next: {stage} ({description}).', zh: '下一步：{stage}（{description}）。' },
  'ask.nextCompletes': { en: 'Next: the pipeline completes.', zh: '下一步：流水线完成。' },
  'ask.approvalRecords': { en: 'Approving records the sha256 of {files}; a later change needs re-approval.', zh: '批准时会记录 {files} 的 sha256；之后的改动需要重新批准。' },
  'ask.staleDerived': { en: '{output} is older than {input}, which it is derived from.', zh: '{output} 早于其派生来源 {input}。' },
  'ask.reapproves': { en: 'Confirming approves {stage} again: {files} changed since its last approval.', zh: '确认即重新批准 {stage}：自上次批准以来 {files} 已变更。' },
  'ask.openThreads': {
    en: '{count, plural, one {# comment thread on its outputs is} other {# comment threads on its outputs are}} still open: {places}.',
    zh: '其产出上仍有 {count} 个未解决的评论线程：{places}。',
  },
  'ask.runTasks.title': { en: 'Run the tasks of {feature} with a language model?', zh: '使用语言模型运行 {feature} 的任务？' },
  'ask.runTasks.ok': { en: 'Run Tasks', zh: '运行任务' },
  'ask.runTasks.sends': {
    en: 'Loom will send the task, spec excerpts and code to the selected language model. Files are written only inside the feature worktree; the test command runs there.',
    zh: 'Loom 会把任务、spec 摘录和代码发送给所选的语言模型。文件只写入功能工作树；测试命令也在其中运行。',
  },
  'ask.runTasks.testLocations': {
    en: 'The test reporter may write only in the test locations: {where}. Never in hidden folders such as .github/ or .vscode/, nor files a tool runs by name (package.json, CI workflows, git hooks).',
    zh: '测试报告器只能写入测试位置：{where}。绝不写入 .github/ 或 .vscode/ 等隐藏文件夹，也不写入工具按名称运行的文件（package.json、CI 工作流、git 钩子）。',
  },
  'ask.runTasks.testFilesBeside': { en: '{folder} (test files {extensions})', zh: '{folder}（测试文件 {extensions}）' },
  'ask.adjust.title': { en: 'Change the steps ahead of {specDir} (at {stage})?', zh: '更改 {specDir} 接下来的步骤（当前在 {stage}）？' },
  'ask.adjust.from': { en: 'From now on: {steps}.', zh: '从现在起：{steps}。' },
  'ask.adjust.leftOut': { en: 'Left out: {steps}.', zh: '略去：{steps}。' },
  'ask.adjust.nothingLeftOut': { en: 'Nothing is left out.', zh: '没有略去任何步骤。' },
  'ask.adjust.ok': { en: 'Change the Steps', zh: '更改步骤' },

  'refusal.threadsOpen': {
    en: '{specDir} cannot leave {stage}: {count, plural, one {# comment thread on its outputs is open} other {# comment threads on its outputs are open}} (loom.review.blockOnOpenThreads); answer or resolve them first',
    zh: '{specDir} 无法离开 {stage}：其产出上有 {count} 个未解决的评论线程（loom.review.blockOnOpenThreads）；请先回复或解决',
  },
  'check.threadsAnswered': {
    en: 'no review thread on the outputs of {stage} is open (loom.review.blockOnOpenThreads)',
    zh: '{stage} 的产出上没有未解决的评审线程（loom.review.blockOnOpenThreads）',
  },
  'guard.threadOpen': { en: '{place}: {comment}', zh: '{place}：{comment}' },

  'refusal.tasksRunning': { en: 'the tasks of {specDir} are running; stop them first (Stop Tasks)', zh: '{specDir} 的 task 正在运行；请先停止（停止任务）' },
  'refusal.tasksRunningElsewhere': {
    en: 'the tasks of {specDir} are running (pid {pid}); nothing was written: wait for the run, or stop it where it runs',
    zh: '{specDir} 的 task 正在运行（pid {pid}）；未写入任何内容：请等待运行结束，或在其运行处停止它',
  },
  'refusal.failNotTaken': { en: '{specDir}: the pipeline did not accept a failure at {stage}', zh: '{specDir}：流水线在 {stage} 不接受标记失败' },
  'refusal.stageUnknownDetail': { en: 'current_stage is "{stage}"; the stages of {pipeline} are {stages}', zh: 'current_stage 为“{stage}”；{pipeline} 的阶段为 {stages}' },
  'port.notAtTaskStage': { en: '{specDir} is at {stage}: tasks run at {taskStage}', zh: '{specDir} 处于 {stage}：task 在 {taskStage} 阶段运行' },
  'port.tasksCannotRun': { en: 'the tasks of {specDir} cannot run yet', zh: '{specDir} 的 task 暂时无法运行' },
  'port.notRunning': { en: 'no tasks of {specDir} are running', zh: '{specDir} 没有正在运行的 task' },
  'port.worktreeBusy': { en: 'the worktree of {specDir} is being created already', zh: '{specDir} 的 worktree 正在创建中' },
  'port.noStateToRecord': { en: '{specDir} has no pipeline.state.json: the worktree is found through git instead', zh: '{specDir} 没有 pipeline.state.json：改为通过 git 找到 worktree' },
  'port.adjustNothing': { en: 'no steps were given for {specDir}', zh: '没有为 {specDir} 给出任何步骤' },
  'port.unknownTask': { en: '{specDir} has no task {task}; nothing was written (its tasks: {tasks})', zh: '{specDir} 没有任务 {task}；未写入任何内容（任务有：{tasks}）' },
  'port.notCurrentStage': { en: 'checkpoint stage "{stage}" does not match current stage "{current}"; nothing was written', zh: '检查点阶段“{stage}”与当前阶段“{current}”不一致；未写入任何内容' },
  'port.stateExists': {
    en: '{file} exists already: the spec has started; change its steps instead (loom_adjust_pipeline)',
    zh: '{file} 已存在：该规格已经开始；请改为调整其步骤（loom_adjust_pipeline）',
  },
  'ask.start.title': { en: 'Start {specDir} on these steps?', zh: '让 {specDir} 按这些步骤开始？' },
  'ask.start.steps': { en: 'Steps: {steps}.', zh: '步骤：{steps}。' },
  'ask.start.ok': { en: 'Start', zh: '开始' },
  'port.unknownStatus': { en: 'unknown task status "{status}" (one of {statuses})', zh: '未知的任务状态“{status}”（可选：{statuses}）' },
  'port.badTaskId': { en: '"{id}" is not a task id such as T1', zh: '“{id}”不是 T1 这样的任务 id' },
  'port.handoffOneOf': { en: 'a handoff is for one stage or one task: give exactly one of them', zh: '交接只能针对一个阶段或一个任务：二者须给且只给一个' },
  'port.unknownStage': {
    en: '{stage} is not a stage of the {pipeline} pipeline; its stages are {stages}; nothing was written',
    zh: '{stage} 不是 {pipeline} 流水线的阶段；阶段有：{stages}；未写入任何内容',
  },
  'port.fileUnreadable': { en: '{file} cannot be read, so it was not overwritten: {problems}', zh: '{file} 无法读取，因此未被覆盖：{problems}' },
  'port.handoffInvalid': { en: 'the handoff is not one loom can read: {detail}; nothing was written', zh: '这个 handoff 无法被 loom 读取：{detail}；未写入任何内容' },
  'port.nothingToRefresh': { en: '{file} does not exist, so there is nothing to refresh; write it first', zh: '{file} 不存在，无可刷新；请先写入它' },
  'port.artifactEscapes': { en: 'artifact "{path}" escapes the repository; nothing was written', zh: '产物“{path}”超出了仓库范围；未写入任何内容' },
  // The button of the refusal of Advance at a human-approval gate (the palette's Loom: Approve).
  'remedy.approve': { en: 'Approve', zh: '批准' },
  // #loomStatus's next step at a human-approval gate whose work is done (src/host/lmTools/statusTool.ts).
  'tool.next.approveGate': {
    en: 'Ready to move to {to} once the user approves {stage}, a human-approval gate: show the user the outputs, then call #loomApproveGate (VS Code asks the user to confirm); #loomAdvance does not pass it.',
    zh: '用户批准人工批准关卡 {stage} 后即可进入 {to}：向用户展示产出，然后调用 #loomApproveGate（VS Code 会请用户确认）；#loomAdvance 不会越过它。',
  },
  'cli.approveHint': {
    en: 'A person approves it: review its outputs, then run: loom-vscode approve --spec-dir {specDir}',
    zh: '这需要本人批准：审阅其产出后运行：loom-vscode approve --spec-dir {specDir}',
  },
  'cli.confirmHint': {
    en: 'A person confirms it: check it, then run the same command again with --confirm.',
    zh: '这需要本人确认：检查无误后，加上 --confirm 再次运行同一命令。',
  },
  'port.notConfirmed': {
    en: 'the step {from} → {to} of {specDir} was not confirmed by the person (the spec is now at {stage})',
    zh: '{specDir} 的 {from} → {to} 这一步未经本人确认（该规格现在处于 {stage}）',
  },
} as const satisfies MessageTable;
