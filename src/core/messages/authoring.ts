import type { MessageTable } from './catalogTypes';

/** What @loom's drafts fail on before they are written, and why a draft is not written (src/core/authoring). */
export const authoringMessages = {
  'draft.notWritable': { en: '{path} is not a file /{command} may write (only {files})', zh: '{path} 不是 /{command} 可以写入的文件（只能写 {files}）' },
  'draft.cutOff': { en: '{path} was cut off: its block has no "=== END FILE ===" line', zh: '{path} 被截断：它的块没有 "=== END FILE ===" 行' },
  'draft.noFile': { en: 'no file was written (expected {files})', zh: '没有写出任何文件（应写 {files}）' },
  'draft.notASpec': { en: '{specDir} could not be read as a loom spec', zh: '{specDir} 无法作为 loom 规格读取' },
  'draft.placeholder': { en: '{path}:{line}: placeholder "{placeholder}" left in', zh: '{path}:{line}：仍留有占位符 "{placeholder}"' },
  'draft.specNamesUndeclared': { en: 'spec.md names {id} but requirements.json does not declare it', zh: 'spec.md 提到了 {id}，但 requirements.json 未声明它' },
  'draft.requirementNotNamed': { en: 'requirements.json declares {id} but spec.md does not name it', zh: 'requirements.json 声明了 {id}，但 spec.md 没有提到它' },
  'draft.noRequirement': { en: 'requirements.json declares no requirement', zh: 'requirements.json 没有声明任何需求' },
  'draft.noBehavior': { en: '{id} has no behavior', zh: '{id} 没有 behavior' },
  'draft.empty': { en: '{path} is empty', zh: '{path} 是空的' },
  'draft.writeNotAllowed': { en: '{path} is not a file /{command} may write', zh: '{path} 不是 /{command} 可以写入的文件' },
  'draft.changedSince': {
    en: '{path} changed since @loom drafted it; nothing was written. Ask @loom /{command} again to draft from the current file.',
    zh: '@loom 起草后 {path} 已有变更；未写入任何内容。请再次让 @loom /{command} 基于当前文件起草。',
  },
} as const satisfies MessageTable;
