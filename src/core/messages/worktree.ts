import type { MessageTable } from './catalogTypes';

/** Why the git-worktree stage could not make or find the feature worktree (src/core/git/featureWorktree.ts). */
export const worktreeMessages = {
  'worktree.noRepository': {
    en: '{root} is not inside a git repository; run "git init" and commit the project first',
    zh: '{root} 不在 git 仓库中；请先运行 "git init" 并提交项目',
  },
  'worktree.noCommit': {
    en: 'the repository {root} has no commit yet; commit the project first (the worktree starts from HEAD)',
    zh: '仓库 {root} 还没有任何提交；请先提交项目（worktree 从 HEAD 创建）',
  },
  'worktree.checkedOutInRepository': {
    en: '{branch} is checked out in the repository itself ({path}); switch that working tree to another branch, then create the worktree again',
    zh: '{branch} 已在仓库本身（{path}）中检出；请先把该工作区切换到其他分支，再重新创建 worktree',
  },
  'worktree.checkedOutElsewhere': { en: '{branch} is already checked out in another worktree: {detail}', zh: '{branch} 已在另一个 worktree 中检出：{detail}' },
  'worktree.dirty': {
    en: 'the repository has uncommitted changes ({files}); commit or stash them first: the worktree starts from HEAD and would not contain them',
    zh: '仓库有未提交的更改（{files}）；请先提交或 stash 它们：worktree 从 HEAD 创建，不会包含这些更改',
  },
  'worktree.dirtyMore': {
    en: '{shown}, … ({count, plural, one {# file} other {# files}})',
    zh: '{shown} 等，共 {count} 个文件',
  },
  'worktree.pathTaken': {
    en: '{path} already exists and is not a worktree of {branch}; move it away or set loom.worktree.location',
    zh: '{path} 已存在，且不是 {branch} 的 worktree；请将其移走，或设置 loom.worktree.location',
  },
  'worktree.gitFailed': { en: '{command} failed: {detail}', zh: '{command} 失败：{detail}' },
} as const satisfies MessageTable;
