import type { MessageTable } from './catalogTypes';

/** The traceability ledgers' cross-references that do not hold (src/core/trace/traceabilityMatrix.ts), as Problems entries. */
export const traceMessages = {
  'trace.unknownBehavior': { en: '{task} names behavior {behavior}, which requirements.json does not declare', zh: '{task} 引用了 behavior {behavior}，但 requirements.json 未声明它' },
  'trace.unknownRequirement': { en: 'traceability.json traces {requirement}, which requirements.json does not declare', zh: 'traceability.json 追溯了 {requirement}，但 requirements.json 未声明它' },
  'trace.unknownTraceBehavior': {
    en: 'traceability.json traces {behavior} under {requirement}, which does not declare it',
    zh: 'traceability.json 在 {requirement} 下追溯了 {behavior}，但该需求未声明它',
  },
  'trace.unknownTask': {
    en: 'traceability.json maps {item} to {task}, but tasks/{task}.md does not exist',
    zh: 'traceability.json 将 {item} 映射到 {task}，但 tasks/{task}.md 不存在',
  },
  'trace.behaviorWithoutTask': {
    en: "{behavior} is not mapped to any task (traceability.json or a task's behavior_ids)",
    zh: '{behavior} 未映射到任何 task（traceability.json 或 task 的 behavior_ids 中都没有）',
  },
} as const satisfies MessageTable;
