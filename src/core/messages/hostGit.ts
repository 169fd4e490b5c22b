import type { MessageTable } from './catalogTypes';

/** What the extension's host shows in src/host/git, in English and Chinese. */
export const hostGitMessages = {
  'host.git.loomCreatingWorktree': { en: 'Loom: creating the worktree of {feature}', zh: 'Loom：正在创建 {feature} 的工作树' },
  'host.git.createdBranchWorktreeAt': { en: '{feature}: created branch {branch} with its worktree at {path}.', zh: '{feature}：已创建分支 {branch}，工作树位于 {path}。' },
  'host.git.usingExistingWorktreeAt': { en: '{feature}: using the existing worktree of {branch} at {path}.', zh: '{feature}：使用 {branch} 已有的工作树 {path}。' },
  'host.git.openNewWindow': { en: 'Open in New Window', zh: '在新窗口中打开' },
  'host.git.whichSpecNeedsWorktree': { en: 'Which spec needs a worktree?', zh: '哪个 spec 需要工作树？' },
} as const satisfies MessageTable;
