import type { MessageTable } from './catalogTypes';

/**
 * The findings of artifact-analysis-pass (spec.md, requirements.json, plan.md, tasks/ and
 * traceability.json against each other) and the refusals of `analyze --override`. A finding's
 * `kind` stays loom's English word; its message and fix are worded here.
 */
export const artifactAnalysisMessages = {
  // artifact-analysis-pass: files that are missing or do not parse.
  'analysis.specMissing': { en: 'spec.md does not exist', zh: 'spec.md 不存在' },
  'analysis.planMissing': { en: 'plan.md does not exist', zh: 'plan.md 不存在' },
  'analysis.requirementsMissing': { en: 'requirements.json does not exist', zh: 'requirements.json 不存在' },
  'analysis.requirementsUnreadable': { en: 'requirements.json could not be read (see the Problems it reports)', zh: '无法读取 requirements.json（见它报告的问题）' },
  'analysis.traceabilityMissing': { en: 'traceability.json does not exist', zh: 'traceability.json 不存在' },
  'analysis.traceabilityUnreadable': { en: 'traceability.json could not be read (see the Problems it reports)', zh: '无法读取 traceability.json（见它报告的问题）' },

  // spec.md against requirements.json.
  'analysis.undeclared': { en: 'requirements.json does not declare {id}, which spec.md names', zh: 'spec.md 提到了 {id}，但 requirements.json 没有声明它' },
  'analysis.addRequirement': { en: 'add {id} to requirements.json', zh: '把 {id} 加入 requirements.json' },
  'analysis.unnamed': { en: 'requirements.json declares {id}, which spec.md does not name', zh: 'requirements.json 声明了 {id}，但 spec.md 没有提到它' },
  'analysis.removeOrDescribe': { en: 'remove {id} or describe it in spec.md', zh: '移除 {id}，或在 spec.md 中描述它' },

  // plan.md against tasks/.
  'analysis.unlistedTask': { en: '{task} has a task file but plan.md does not name {name}', zh: '{task} 有任务文件，但 plan.md 没有写出 {name}' },
  'analysis.listOrRemove': {
    en: 'name {name} in plan.md (e.g. [{task}](tasks/{name}) in the task overview), or remove {file}',
    zh: '在 plan.md 中写出 {name}（例如在任务概览中写 [{task}](tasks/{name})），或删除 {file}',
  },
  'analysis.planTaskMissing': { en: 'plan.md names {task}, but {file} does not exist', zh: 'plan.md 提到了 {task}，但 {file} 不存在' },
  'analysis.createFile': { en: 'create {file}', zh: '创建 {file}' },

  // The tasks' own references.
  'analysis.unknownBehavior': { en: '{task} names behavior {id}, which requirements.json does not declare', zh: '{task} 提到了行为 {id}，但 requirements.json 没有声明它' },
  'analysis.removeBehaviorId': { en: "remove {id} from {task}'s behavior_ids", zh: '从 {task} 的 behavior_ids 中移除 {id}' },
  'analysis.unknownRequirement': {
    en: '{task} names requirement {id}, which neither spec.md nor requirements.json declares',
    zh: '{task} 提到了需求 {id}，但 spec.md 和 requirements.json 都没有声明它',
  },
  'analysis.removeRequirementRef': { en: "remove {id} from {task}'s requirements", zh: '从 {task} 的 requirements 中移除 {id}' },
  'analysis.requirementUntasked': { en: "{id} is not in any task's requirements", zh: '{id} 不在任何任务的 requirements 中' },
  'analysis.addRequirementOrCreate': { en: "add {id} to {task}'s requirements, or create a task for it", zh: '把 {id} 加入 {task} 的 requirements，或为它创建任务' },
  'analysis.createTaskFor': { en: 'create a task for {id}', zh: '为 {id} 创建任务' },
  'analysis.behaviorUntasked': { en: "{id} is not in any task's behavior_ids", zh: '{id} 不在任何任务的 behavior_ids 中' },
  'analysis.addBehaviorId': { en: "add {id} to {task}'s behavior_ids", zh: '把 {id} 加入 {task} 的 behavior_ids' },
  'analysis.createTaskImplementing': { en: 'create a task that implements {id}', zh: '创建一个实现 {id} 的任务' },

  // depends_on and owned paths.
  'analysis.cycle': { en: '{tasks} depend on each other in a cycle', zh: '{tasks} 相互依赖，形成循环' },
  'analysis.breakCycle': { en: 'break the cycle in the depends_on of {tasks}', zh: '打破 {tasks} 的 depends_on 中的循环' },
  'analysis.unknownDependency': { en: '{task} depends on {dependency}, which has no task file', zh: '{task} 依赖 {dependency}，但后者没有任务文件' },
  'analysis.removeDependency': { en: "remove {dependency} from {task}'s depends_on", zh: '从 {task} 的 depends_on 中移除 {dependency}' },
  'analysis.conflict': { en: '{a} and {b} may run together but both touch {paths}', zh: '{a} 和 {b} 可能同时运行，但都会改动 {paths}' },
  'analysis.serialize': { en: 'make {b} depend on {a}, or split what they own', zh: '让 {b} 依赖 {a}，或拆分它们负责的文件' },

  // traceability.json.
  'analysis.untraced': { en: 'traceability.json does not trace {id}', zh: 'traceability.json 没有追踪 {id}' },
  'analysis.traceWithTasks': { en: 'add {id} with its tasks to traceability.json', zh: '把 {id} 连同它的任务加入 traceability.json' },
  'analysis.tracedToNoTask': { en: 'traceability.json traces {id} to no task', zh: 'traceability.json 没有把 {id} 追踪到任何任务' },
  'analysis.addTasksTo': { en: "add {tasks} to {id}'s tasks", zh: '把 {tasks} 加入 {id} 的 tasks' },
  'analysis.addItsTasks': { en: "add its tasks to {id}'s tasks", zh: '把它的任务加入 {id} 的 tasks' },
  'analysis.traceToImplementer': { en: 'trace {id} to the task that implements it', zh: '把 {id} 追踪到实现它的任务' },
  'analysis.foreignBehavior': { en: 'traceability.json traces {behavior}, which {id} does not declare', zh: 'traceability.json 追踪了 {behavior}，但 {id} 没有声明它' },
  'analysis.removeFromTrace': { en: 'remove {id} from traceability.json', zh: '从 traceability.json 中移除 {id}' },
  'analysis.traceTaskMissing': { en: 'traceability.json traces {id} to {task}, but {file} does not exist', zh: 'traceability.json 把 {id} 追踪到 {task}，但 {file} 不存在' },
  'analysis.removeTraceTask': { en: "remove {task} from {id}'s tasks", zh: '从 {id} 的 tasks 中移除 {task}' },
  'analysis.unrequestedTrace': {
    en: 'traceability.json traces {id}, which neither spec.md nor requirements.json declares',
    zh: 'traceability.json 追踪了 {id}，但 spec.md 和 requirements.json 都没有声明它',
  },

  // Critical requirement types, ambiguity and warnings.
  'analysis.noCategory': { en: '{id} is declared {declared} but has no {category} behavior', zh: '{id} 声明为 {declared}，但没有 {category} 类行为' },
  'analysis.addCategory': { en: 'add a {category} behavior to {id}', zh: '为 {id} 添加一个 {category} 类行为' },
  'analysis.placeholder': { en: '{file} line {line} still holds the placeholder {placeholder}', zh: '{file} 第 {line} 行仍有占位符 {placeholder}' },
  'analysis.sameDescription': { en: '{id} has the same description as {twin}', zh: '{id} 与 {twin} 的描述相同' },
  'analysis.mergeOrDistinguish': { en: 'merge {id} into {twin}, or tell them apart', zh: '把 {id} 合并到 {twin}，或把两者区分开' },
  'analysis.declaredTwice': { en: 'requirements.json declares {id} {count} times', zh: 'requirements.json 声明了 {id} {count} 次' },
  'analysis.noAcceptance': { en: '{id} has no acceptance criteria of its own', zh: '{id} 没有自己的验收标准' },
  'analysis.stateDone': { en: 'state when {id} is done', zh: '说明 {id} 何时算完成' },
  'analysis.expectsNothing': { en: "{id}'s test_plan expects nothing", zh: '{id} 的 test_plan 没有任何预期结果' },
  'analysis.fillExpected': { en: "fill in {id}'s test_plan.expected", zh: '填写 {id} 的 test_plan.expected' },

  // analyze --override, and the files it will not touch.
  'analysis.noSuchFinding': { en: '{file} has no finding {id}', zh: '{file} 中没有发现项 {id}' },
  'analysis.blockerNoOverride': { en: '{id} is a blocker: fix it, blockers cannot be overridden', zh: '{id} 是阻断项：请修复它，阻断项不能豁免' },
  'analysis.doesNotBlock': { en: '{id} is a {severity} and does not block: nothing to override', zh: '{id} 是 {severity}，不会阻断：无需豁免' },
  'analysis.overriddenStillBlocks': {
    en: "{message} (overridden here: {reason}; loom's run --advance re-runs analyze-artifacts and does not read overrides, so the artifact must be fixed)",
    zh: '{message}（此处已豁免：{reason}；loom 的 run --advance 会重新运行 analyze-artifacts 且不读取豁免，因此必须修复产物）',
  },
  'analysis.overriddenStillBlocksBy': {
    en: "{message} (overridden here by {by}: {reason}; loom's run --advance re-runs analyze-artifacts and does not read overrides, so the artifact must be fixed)",
    zh: '{message}（此处已由 {by} 豁免：{reason}；loom 的 run --advance 会重新运行 analyze-artifacts 且不读取豁免，因此必须修复产物）',
  },
  'analysis.overrideNeedsReason': { en: 'overriding {id} needs a reason', zh: '豁免 {id} 需要给出理由' },
  'analysis.corrupt': { en: '{file} is corrupt; fix or delete it first (it was left untouched)', zh: '{file} 已损坏；请先修复或删除它（未改动该文件）' },
} as const satisfies MessageTable;
