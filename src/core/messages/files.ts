import type { MessageTable } from './catalogTypes';

/**
 * What the readers of loom's files (src/core/files/, src/core/diagnostics/) say about a file
 * that does not parse or does not match its schema. The diagnostic `code`s stay English.
 */
export const fileMessages = {
  'files.notJson': { en: '{file} is not valid JSON: {reason}', zh: '{file} 不是有效的 JSON：{reason}' },
  'files.schemaProblem': { en: '{file}: {where}: {problem}', zh: '{file}：{where}：{problem}' },
  'files.topLevel': { en: 'the top level', zh: '顶层' },
  'files.expectedOneOf': { en: 'Invalid input: expected {types}', zh: '无效的输入：应为 {types}' },
  'files.orSeparator': { en: ' or ', zh: ' 或 ' },
  'files.invalidKey': { en: 'invalid key: {problem}', zh: '无效的键：{problem}' },
  'files.prototypeKey': { en: '{file}: the key "__proto__" is not a valid id and is ignored', zh: '{file}：键 "__proto__" 不是有效的 id，已忽略' },
  'files.frontmatterNotMapping': { en: '{file}: the frontmatter must be a mapping of keys', zh: '{file}：frontmatter 必须是键值映射' },
  'files.behaviorIdPattern': { en: 'behavior id must look like REQ-001-B01', zh: '行为 id 必须形如 REQ-001-B01' },
  'files.requirementIdPattern': { en: 'requirement id must look like REQ-001', zh: '需求 id 必须形如 REQ-001' },
  'files.descriptionEmpty': { en: 'description must not be empty', zh: 'description 不能为空' },
  'files.acceptanceEmpty': { en: 'a behavior needs at least one acceptance criterion', zh: '每个行为至少需要一条验收标准' },
  // What a workflow step's path list holds instead of file names.
  'files.aList': { en: 'a list', zh: '列表' },
  'files.aMapping': { en: 'a mapping', zh: '映射' },
  // A finding's quick fix, when the file it edits cannot be edited safely.
  'files.frontmatterUnclosed': {
    en: '{file}: the frontmatter opened on line 1 is never closed with ---, so it cannot be edited',
    zh: '{file}：第 1 行开始的 frontmatter 没有用 --- 结束，无法编辑',
  },
  'files.notJsonNoEdit': { en: '{file} is not valid JSON, so it cannot be edited automatically', zh: '{file} 不是有效的 JSON，无法自动编辑' },
  'files.noRequirementsToEdit': { en: '{file} has no requirements object or list to edit', zh: '{file} 中没有可编辑的 requirements 对象或列表' },
  'files.requirementUntraced': { en: '{file} does not trace {requirement}: add the requirement first', zh: '{file} 没有追踪 {requirement}：请先添加该需求' },
  'files.entryNotObject': { en: '{file}: the entry of {requirement} is not an object', zh: '{file}：{requirement} 的条目不是对象' },
  'files.behaviorsNotObject': { en: '{file}: the behaviors of {requirement} are not an object', zh: '{file}：{requirement} 的 behaviors 不是对象' },
  'files.traceNotObject': { en: '{file}: the trace of {behavior} is not an object', zh: '{file}：{behavior} 的追踪条目不是对象' },
  'files.listNotList': { en: '{file}: the {key} of {subject} are not a list', zh: '{file}：{subject} 的 {key} 不是列表' },
} as const satisfies MessageTable;
