import type { MessageTable } from './catalogTypes';

/** Words many areas use: counts that need plural forms, a prompt's empty places, and refusals several surfaces share. */
export const commonMessages = {
  'count.retries': { en: '{count, plural, one {# retry} other {# retries}}', zh: '{count} 次重试' },
  'count.tasks': { en: '{count, plural, one {# task} other {# tasks}}', zh: '{count} 个任务' },
  'count.specs': { en: '{count, plural, one {# spec} other {# specs}}', zh: '{count} 个规格' },
  'count.files': { en: '{count, plural, one {# file} other {# files}}', zh: '{count} 个文件' },

  // What a prompt says where it has nothing to show.
  'prompt.none': { en: '(none)', zh: '（无）' },
  'prompt.notYetWritten': { en: '(does not exist yet)', zh: '（尚不存在）' },

  // Refusals of files that cannot be read, said alike by the CLI and the MCP server.
  'input.stateCorrupt': { en: '{file} is corrupt, so the current stage is unknown; nothing was written', zh: '{file} 已损坏，无法确定当前阶段；未写入任何内容' },
  'input.unknownStage': {
    en: '{file} names a stage the {pipeline} pipeline does not have; nothing was written',
    zh: '{file} 记录的阶段不属于 {pipeline} 流水线；未写入任何内容',
  },
  'input.ledgersUnreadable': { en: 'the traceability of {specDir} cannot be built: {files} cannot be read', zh: '无法构建 {specDir} 的追溯关系：{files} 无法读取' },
} as const satisfies MessageTable;
