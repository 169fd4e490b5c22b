import type { MessageTable } from './catalogTypes';

/**
 * What the executing stage writes for its subagents, in the spec's language (the language of the
 * loop's prompts): the fix instructions in loom's own format (parsed back by fixInstructions.ts,
 * so the headings and field names are part of the format), the fix items the core writes itself,
 * the compact index of upstream handoffs, and the parts of a prompt the core fills in.
 */
export const subagentTextMessages = {
  // loom's fix-instruction format; the Chinese keeps loom's ASCII `: ` after each field name.
  'fixInstructions.heading': { en: '## Fix instructions', zh: '## 修复指令' },
  'fixInstructions.item': { en: '### Fix item {number}', zh: '### 修复项 {number}' },
  'fixInstructions.problem': { en: '- Problem: {text}', zh: '- 问题: {text}' },
  'fixInstructions.file': { en: '- File: {text}', zh: '- 文件: {text}' },
  'fixInstructions.location': { en: '- Location: {text}', zh: '- 位置: {text}' },
  'fixInstructions.severity': { en: '- Severity: {text}', zh: '- 严重度: {text}' },
  'fixInstructions.direction': { en: '- Direction: {text}', zh: '- 修复方向: {text}' },

  // Fix items the core writes itself (src/core/executing/machine/taskAttempt.ts, evidence/behaviorClosure.ts).
  'fixItem.noStatus': { en: 'the last answer had no status line', zh: '上一次回答没有状态行' },
  'fixItem.noStatus.direction': {
    en: 'end with one status line: STATUS: DONE | DONE_WITH_CONCERNS | NEEDS_CONTEXT | BLOCKED',
    zh: '以一行状态结束：状态：DONE | DONE_WITH_CONCERNS | NEEDS_CONTEXT | BLOCKED',
  },
  'fixItem.testDeleted': { en: 'the test file {file} was deleted', zh: '测试文件 {file} 被删除' },
  'fixItem.testDeleted.direction': { en: 'restore it; tests may not be deleted', zh: '恢复该测试文件；禁止删除测试' },
  'fixItem.testRunFailed': { en: 'the test command {command} failed ({status}; log {log})', zh: '测试命令 {command} 失败（{status}，日志 {log}）' },
  'fixItem.noPersistentTest': { en: 'behavior {behavior} has no persistent test file that can be found', zh: 'behavior {behavior} 没有可找到的持久化测试文件' },
  'fixItem.noPersistentTest.direction': {
    en: "write a persistent test covering {behavior} (name {behavior} in the test's name) and list it under ## Tests as `- {behavior}: file#test name`; if no real test can be written, answer NEEDS_CONTEXT or BLOCKED",
    zh: '编写覆盖 {behavior} 的持久化测试（测试名中写出 {behavior}），并在 ## 测试 中列出 `- {behavior}: 文件#测试名`；无法编写真实测试时回答 NEEDS_CONTEXT 或 BLOCKED',
  },
  // "Done means done": what a task that passed its review still lacks (taskMachine.ts closing).
  'fixItem.ownsUnchanged': { en: 'not done yet: the task changed none of the files in its owns ({files})', zh: '尚未完成：task 没有修改其 owns 中的任何文件（{files}）' },
  'fixItem.ownsUnchanged.direction': {
    en: 'make the change the task asks for in {files}; if it truly needs none, say why and stop with STATUS: NEEDS_CONTEXT',
    zh: '按 task 的要求修改 {files}；若确实无需修改，请说明原因并以 状态：NEEDS_CONTEXT 结束',
  },
  'fixItem.newProblem': {
    en: 'not done yet: {file}:{line} has a new error in the Problems panel ({source}): {message}',
    zh: '尚未完成：{file}:{line} 在“问题”面板中有新的错误（{source}）：{message}',
  },
  'fixItem.newProblem.direction': {
    en: 'fix the error itself, without weakening types or turning the check off; the task is done only when the files it changed have no new errors',
    zh: '修复错误本身，不要放宽类型或关闭检查；只有其修改的文件没有新的错误时 task 才算完成',
  },
  'fixItem.line': { en: 'line {line}', zh: '第 {line} 行' },
  // Review Changes: the person rejected one file of a finished task (rejectionFixItem, src/core/executing/review/taskChanges.ts).
  'fixItem.rejected': { en: 'the user rejected your change to {file}: {words}', zh: '用户拒绝了你对 {file} 的修改：{words}' },
  'fixItem.rejected.noWords': { en: 'the user rejected your change to {file}', zh: '用户拒绝了你对 {file} 的修改' },
  'fixItem.rejected.direction': {
    en: '{file} is back as it was before the task; do the task again in it, as the user asks',
    zh: '{file} 已恢复到该 task 之前的状态；请按用户的要求重新完成其中的修改',
  },
  // A severity the core gives its own fix items; isBlocking reads both words as blocking.
  'fixItem.blocker': { en: 'blocker', zh: '阻断' },
  'testRun.timedOut': { en: 'timed out', zh: '超时' },
  'testRun.exitCode': { en: 'exit code {code}', zh: '退出码 {code}' },

  // The upstream handoffs, as a compact index for the implementer (src/core/executing/taskHandoff.ts).
  'handoffIndex.none': { en: '- {task}: no handoff (check the source directly)', zh: '- {task}：没有 handoff（请直接核对源码）' },
  'handoffIndex.artifacts': { en: 'artifacts: {files}', zh: '产物: {files}' },
  'handoffIndex.exports': { en: 'exports: {name} ({path}){signature}', zh: '导出: {name} ({path}){signature}' },
  'handoffIndex.changed': { en: 'note: changed after that task finished, check the source: {files}', zh: '注意：以下文件在该 task 完成后又被修改，请核对源码: {files}' },

  // The parts of a prompt the core fills in (src/core/executing/dispatch/promptBuilder.ts, tools/testWriteScope.ts).
  'prompt.userContext': { en: '## Context from the user', zh: '## 用户补充的上下文' },
  'prompt.userAnswer': { en: '- Q: {question}\n  A: {answer}', zh: '- 问: {question}\n  答: {answer}' },
  'prompt.testCommand': { en: "the project's test command", zh: '项目的测试命令' },
  'prompt.writeScope': {
    en: "Write scope: you may write only the project's test locations: {where}. Hidden folders (.github/, .vscode/) and files a tool runs by name (package.json and other manifests, CI workflows, git hooks) are never writable.",
    zh: '写入范围：你只能写入项目的测试位置：{where}。隐藏文件夹（.github/、.vscode/）和按名称运行的文件（package.json 等清单、CI 工作流、git 钩子）一律不可写。',
  },
} as const satisfies MessageTable;
