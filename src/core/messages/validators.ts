import type { MessageTable } from './catalogTypes';

/**
 * The validators' findings (src/core/validators/): each finding's `message` and the details of
 * its `suggested_fix`. A finding's `kind` and the validator's name stay loom's English words.
 */
export const validatorMessages = {
  // Any validator: a file it reads is missing or does not parse.
  'validator.fileMissing': { en: '{file} does not exist', zh: '{file} 不存在' },
  'validator.fileUnreadable': { en: '{file} could not be read (see the Problems it reports)', zh: '无法读取 {file}（见它报告的问题）' },

  // task-state-closure
  'validator.taskState.repair': { en: 'repair or delete {file}; loom never overwrites it', zh: '修复或删除 {file}；loom 从不覆盖它' },
  'validator.taskState.missing': { en: '{task} has no {file}', zh: '{task} 没有 {file}' },
  'validator.taskState.runIt': { en: 'run {task}: executing it records its state in {file}', zh: '运行 {task}：执行时会把状态记录到 {file}' },
  'validator.taskState.notDone': { en: '{task} is {status}, not done', zh: '{task} 的状态为 {status}，尚未完成' },
  'validator.taskState.blockerItems': { en: '{problem} (and {more, plural, one {# more fix item} other {# more fix items}})', zh: '{problem}（另有 {more} 个修复项）' },
  'validator.taskState.notDoneBlocker': { en: '{task} is {status}, not done (blocker: {blocker})', zh: '{task} 的状态为 {status}，尚未完成（阻断：{blocker}）' },
  'validator.taskState.settleBlocker': { en: "settle {task}'s blocker, then run it again", zh: '先解决 {task} 的阻断，再重新运行它' },
  'validator.taskState.fixFailure': { en: 'fix what failed in {task}, then run it again', zh: '修复 {task} 中失败的部分，再重新运行它' },
  'validator.taskState.finish': { en: 'finish {task}', zh: '完成 {task}' },
  'validator.taskState.extra': { en: '{file} has no tasks/{task}.md', zh: '{file} 没有对应的 tasks/{task}.md' },
  'validator.taskState.deleteExtra': { en: 'delete {file}, or restore tasks/{task}.md', zh: '删除 {file}，或恢复 tasks/{task}.md' },

  // requirement-task-closure
  'validator.reqTask.unlisted': { en: '{id} appears in spec.md but no task lists it in requirements', zh: '{id} 出现在 spec.md 中，但没有任务在 requirements 中列出它' },
  'validator.reqTask.addTo': { en: "add {id} to {task}'s requirements", zh: '把 {id} 加入 {task} 的 requirements' },
  'validator.reqTask.create': {
    en: 'create a task for {id}, or add {id} to the requirements of the task that implements it',
    zh: '为 {id} 创建任务，或把 {id} 加入实现它的任务的 requirements',
  },

  // planning-artifacts
  'validator.planning.taskMissing': { en: '{owner} maps to {ref}, but tasks/{task}.md does not exist', zh: '{owner} 对应到 {ref}，但 tasks/{task}.md 不存在' },
  'validator.planning.removeRef': { en: "remove {ref} from {owner}'s tasks, or create tasks/{task}.md", zh: '从 {owner} 的 tasks 中移除 {ref}，或创建 tasks/{task}.md' },
  'validator.planning.overviewUnreferenced': {
    en: 'plan.md names other task files as tasks/TN.md but not tasks/{name}',
    zh: 'plan.md 以 tasks/TN.md 的形式写出了其他任务文件，却没有写出 tasks/{name}',
  },
  'validator.planning.addToOverview': { en: 'add [{task}](tasks/{name}) to the task overview in plan.md', zh: '在 plan.md 的任务概览中加入 [{task}](tasks/{name})' },
  'validator.planning.untraced': { en: '{id} is missing from traceability.json', zh: 'traceability.json 中缺少 {id}' },
  'validator.planning.addTrace': { en: 'add {id} to traceability.json', zh: '把 {id} 加入 traceability.json' },
  'validator.planning.addTraceWith': { en: 'add {id} to traceability.json with {tasks}', zh: '把 {id} 连同 {tasks} 加入 traceability.json' },
  'validator.planning.noTask': { en: '{id} maps to no task in traceability.json', zh: '{id} 在 traceability.json 中没有对应任务' },
  'validator.planning.addTasks': { en: "add {tasks} to {id}'s tasks", zh: '把 {tasks} 加入 {id} 的 tasks' },
  'validator.planning.createTask': { en: "create a task for {id} and list it in {id}'s tasks", zh: '为 {id} 创建任务，并把它列入 {id} 的 tasks' },
  'validator.planning.addBehavior': {
    en: 'add {id} to the behavior_ids of the task that implements it, then to its tasks here',
    zh: '把 {id} 加入实现它的任务的 behavior_ids，再把该任务列入这里的 tasks',
  },
  'validator.planning.unrequested': {
    en: 'traceability.json traces {id}, which neither spec.md nor requirements.json names',
    zh: 'traceability.json 追踪了 {id}，但 spec.md 和 requirements.json 都没有提到它',
  },
  'validator.planning.removeUnrequested': {
    en: 'remove {id} from traceability.json, or declare it in spec.md and requirements.json',
    zh: '从 traceability.json 中移除 {id}，或在 spec.md 和 requirements.json 中声明它',
  },

  // convergence-pass: the findings, and the tasks converge appends (in the spec's language).
  'validator.converge.noTest': { en: 'no test', zh: '没有测试' },
  'validator.converge.noEvidence': { en: 'no evidence', zh: '没有证据' },
  'validator.converge.notFound': { en: '{refs} not found', zh: '找不到 {refs}' },
  'validator.converge.onlyInWorktree': {
    en: '{ref} only in the feature worktree, not in the spec directory or the repository root where loom looks (name it {through}, or merge the feature first)',
    zh: '{ref} 只在功能 worktree 中，不在 loom 查找的规格目录或仓库根目录中（请写成 {through}，或先合并该功能）',
  },
  'validator.converge.gap': { en: '{behavior} is {kind}: {lacking}', zh: '{behavior} 为 {kind}：{lacking}' },
  'validator.converge.addTask': { en: 'add a task that implements the tests and evidence of {behavior}', zh: '添加一个任务，实现 {behavior} 的测试和证据' },
  'validator.converge.unrequested': { en: '{behavior} is traced but requirements.json does not declare it', zh: '{behavior} 被追踪，但 requirements.json 没有声明它' },
  'validator.converge.removeTrace': { en: 'remove {behavior} from traceability.json', zh: '从 traceability.json 中移除 {behavior}' },
  'validator.converge.taskHeading': { en: '# {task}: Close the convergence gaps of {requirement}', zh: '# {task}：补齐 {requirement} 的收敛缺口' },
  'validator.converge.taskBody': {
    en: 'Converge round {round} found {behaviors} without tests and evidence that exist. Implement what is missing, add the tests, keep their log under evidence/, and record both in traceability.json.',
    zh: '第 {round} 轮收敛发现 {behaviors} 缺少实际存在的测试和证据。请实现缺失的部分，补上测试，把测试日志保存在 evidence/ 下，并在 traceability.json 中记录两者。',
  },
  'validator.converge.planItem': {
    en: '- [{task}](tasks/{task}.md): close the convergence gaps of {requirement}: {behaviors}',
    zh: '- [{task}](tasks/{task}.md)：补齐 {requirement} 的收敛缺口：{behaviors}',
  },
  'validator.converge.planHeading': { en: '## Convergence round {round}', zh: '## 第 {round} 轮收敛' },

  // detail-expansion
  'validator.detail.noCategory': {
    en: '{id} has no {category} behavior (add one, or one marked applicability: not-applicable)',
    zh: '{id} 没有 {category} 类行为（请添加一个，或添加一个标记为 applicability: not-applicable 的行为）',
  },
  'validator.detail.addCategory': { en: 'add a {category} behavior to {id}', zh: '为 {id} 添加一个 {category} 类行为' },
  'validator.detail.noTestPlan': { en: '{id} has no test_plan', zh: '{id} 没有 test_plan' },
  'validator.detail.giveTestPlan': { en: 'give {id} a test_plan (strategy, inputs, expected, coverage_target)', zh: '为 {id} 编写 test_plan（strategy、inputs、expected、coverage_target）' },
  'validator.detail.incompleteTestPlan': {
    en: '{id}: the test_plan needs a strategy, at least one input and at least one expected outcome',
    zh: '{id}：test_plan 需要 strategy、至少一个输入和至少一个预期结果',
  },
  'validator.detail.completeTestPlan': { en: "complete {id}'s test_plan: strategy, inputs[], expected[]", zh: '补全 {id} 的 test_plan：strategy、inputs[]、expected[]' },
  'validator.detail.clarification': { en: '{id} still requires clarification', zh: '{id} 仍需澄清' },
  'validator.detail.settle': { en: 'settle {id}: applicability applicable or not-applicable', zh: '确定 {id}：applicability 设为 applicable 或 not-applicable' },
  'validator.detail.placeholder': { en: '{id}: the description is still a placeholder ("{placeholder}")', zh: '{id}：描述仍是占位符（"{placeholder}"）' },
  'validator.detail.describe': { en: 'describe what {id} must do', zh: '描述 {id} 必须做什么' },

  // A finding in the Problems panel: its words, then its id.
  'validator.finding.entry': { en: '{message} ({id})', zh: '{message}（{id}）' },
  'validator.finding.blocker': { en: '{message} ({id}, blocker)', zh: '{message}（{id}，阻断）' },
  'validator.finding.overridden': {
    en: "{message} ({id}, overridden: {reason}; loom's run --advance re-runs the analysis and reads no override, so it still blocks until the artifact is fixed)",
    zh: '{message}（{id}，已豁免：{reason}；loom 的 run --advance 会重新运行分析且不读取豁免，因此在修复产物之前仍会阻断）',
  },
  'validator.finding.overriddenBy': {
    en: "{message} ({id}, overridden by {by}: {reason}; loom's run --advance re-runs the analysis and reads no override, so it still blocks until the artifact is fixed)",
    zh: '{message}（{id}，由 {by} 豁免：{reason}；loom 的 run --advance 会重新运行分析且不读取豁免，因此在修复产物之前仍会阻断）',
  },

  // verification-artifacts
  'validator.verify.failure': {
    en: '{name} line {line} reports a failure without a known-warning context (loom refuses a report that says FAIL, in any case, unless it also says WARN or known)',
    zh: '{name} 第 {line} 行报告了失败，且没有已知警告的说明（loom 拒绝含 FAIL 字样的报告，不区分大小写，除非同时写明 WARN 或 known）',
  },
  'validator.verify.noVerdict': { en: '{name} has no verdict: PASS line', zh: '{name} 没有 verdict: PASS 行' },
  'validator.verify.unmentioned': { en: '{name} says PASS but does not mention {id}', zh: '{name} 结论为 PASS，但没有提到 {id}' },
  'validator.verify.placeholder': { en: '{name} line {line} still holds the placeholder {placeholder}', zh: '{name} 第 {line} 行仍有占位符 {placeholder}' },
  'validator.verify.loomPlaceholder': {
    en: '{name} line {line} holds "{placeholder}", which loom\'s placeholder rule (TBD, TODO, implement later, fill in details; case ignored) refuses: reword it',
    zh: '{name} 第 {line} 行含有 "{placeholder}"，loom 的占位符规则（TBD、TODO、implement later、fill in details，不区分大小写）会拒绝它：请换个说法',
  },
  'validator.verify.hhmm': { en: 'progress.md still holds the literal HH:mm', zh: 'progress.md 仍含字面的 HH:mm' },
  'validator.verify.untraced': { en: 'traceability.json does not trace {id}', zh: 'traceability.json 没有追踪 {id}' },
  'validator.verify.outsideEvidence': { en: '{behavior}: {ref} is not under evidence/', zh: '{behavior}：{ref} 不在 evidence/ 下' },
  'validator.verify.refMissing': { en: '{behavior}: {ref} does not exist', zh: '{behavior}：{ref} 不存在' },
  'validator.verify.testOnlyInWorktree': {
    en: '{behavior}: {ref} is not in the spec directory or the repository root, where loom looks for tests; only the feature worktree has it (name it {through}, or merge the feature first)',
    zh: '{behavior}：{ref} 不在规格目录或仓库根目录中（loom 只在这两处查找测试），只有功能 worktree 中有它（请写成 {through}，或先合并该功能）',
  },
  'validator.verify.pointAtFiles': { en: 'point {id} at files that exist', zh: '让 {id} 指向实际存在的文件' },
  'validator.verify.notClosed': { en: '{behavior} is not closed: {lacking}', zh: '{behavior} 未闭合：{lacking}' },
  'validator.verify.giveLinks': { en: 'give {id} its task, test and evidence', zh: '为 {id} 补上任务、测试和证据' },
  'validator.verify.requirementLacks': { en: '{id} itself has {lacking} in traceability.json', zh: '{id} 本身在 traceability.json 中{lacking}' },
  'validator.verify.taskMissing': { en: 'traceability.json names {task}, but tasks/{file}.md does not exist', zh: 'traceability.json 提到了 {task}，但 tasks/{file}.md 不存在' },
} as const satisfies MessageTable;
