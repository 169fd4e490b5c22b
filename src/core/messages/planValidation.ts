import type { MessageTable } from './catalogTypes';

/** The findings of loom's validate-plan.mjs, as the loom_validate_plan tool answers them. */
export const planValidationMessages = {
  'validator.plan.placeholder': { en: '{file} contains placeholder phrase: {phrase}', zh: '{file} 含有占位词：{phrase}' },
  'validator.plan.noTaskSection': { en: 'plan.md must include a Task overview section', zh: 'plan.md 必须包含 Task 概览一节' },
  'validator.plan.noDependencies': { en: 'plan.md should describe task dependencies', zh: 'plan.md 应说明任务之间的依赖关系' },
  'validator.plan.noTasks': { en: 'tasks/ must contain at least one Tn.md file', zh: 'tasks/ 中至少要有一个 Tn.md 文件' },
  'validator.plan.notContiguous': { en: 'Task files must be contiguous from T1.md; expected {expected}, found {found}', zh: '任务文件须从 T1.md 起连续编号；应为 {expected}，实际为 {found}' },
  'validator.plan.taskLacks.heading': { en: 'tasks/{name} missing task heading', zh: 'tasks/{name} 缺少任务标题' },
  'validator.plan.taskLacks.complexity': { en: 'tasks/{name} missing complexity', zh: 'tasks/{name} 缺少复杂度' },
  'validator.plan.taskLacks.dependencies': { en: 'tasks/{name} missing dependencies', zh: 'tasks/{name} 缺少依赖' },
  'validator.plan.taskLacks.files': { en: 'tasks/{name} missing affected files', zh: 'tasks/{name} 缺少涉及文件' },
  'validator.plan.taskLacks.checklist': { en: 'tasks/{name} missing checklist steps', zh: 'tasks/{name} 缺少检查清单步骤（- [ ]）' },
  'validator.plan.taskLacks.tests': { en: 'tasks/{name} missing test instructions', zh: 'tasks/{name} 缺少测试说明' },
  'validator.plan.taskLacks.acceptance': { en: 'tasks/{name} missing acceptance mapping', zh: 'tasks/{name} 缺少验收映射' },
  'validator.plan.noFrontmatter': { en: 'tasks/{name} missing YAML frontmatter', zh: 'tasks/{name} 缺少 YAML frontmatter' },
  'validator.plan.noField': { en: 'tasks/{name} missing frontmatter field {field}', zh: 'tasks/{name} 的 frontmatter 缺少字段 {field}' },
  'validator.plan.emptyRequirements': { en: 'tasks/{name} requirements must not be empty', zh: 'tasks/{name} 的 requirements 不能为空' },
  'validator.plan.badRequirement': { en: 'tasks/{name} has invalid requirement id {id}', zh: 'tasks/{name} 的需求 id {id} 无效' },
  'validator.plan.unknownRequirement': { en: 'tasks/{name} references unknown spec requirement {id}', zh: 'tasks/{name} 引用了 spec 中不存在的需求 {id}' },
  'validator.plan.emptyBehaviors': { en: 'tasks/{name} behavior_ids must not be empty', zh: 'tasks/{name} 的 behavior_ids 不能为空' },
  'validator.plan.badBehavior': { en: 'tasks/{name} has invalid behavior id {id}', zh: 'tasks/{name} 的 behavior id {id} 无效' },
  'validator.plan.unknownBehavior': { en: 'tasks/{name} references unknown behavior {id}', zh: 'tasks/{name} 引用了不存在的 behavior {id}' },
  'validator.plan.unmappedBehavior': { en: 'requirements behavior {id} is not mapped to any task', zh: 'requirements 中的 behavior {id} 没有对应任何任务' },
} as const satisfies MessageTable;
