import type { MessageTable } from './catalogTypes';

/** Issue 49, what a new user met: the memory a sync leaves, the words around the hand-on's commands. */
export const personInLoopMessages = {
  'memory.sync.taskRetried': {
    en: '{feature}: task {task} ({title}) needed {retries, plural, one {# retry} other {# retries}}',
    zh: '{feature}：任务 {task}（{title}）重试了 {retries} 次',
  },
  'memory.sync.taskRetriedPassed': {
    en: '{feature}: task {task} ({title}) needed {retries, plural, one {# retry} other {# retries}} before its review passed',
    zh: '{feature}：任务 {task}（{title}）重试了 {retries} 次审查才通过',
  },
  'memory.sync.taskRetriedReview': {
    en: '{feature}: task {task} ({title}) needed {retries, plural, one {# retry} other {# retries}}; the last review said: {review}',
    zh: '{feature}：任务 {task}（{title}）重试了 {retries} 次；最后一次审查：{review}',
  },
  'memory.sync.taskBlocked': { en: '{feature}: task {task} ({title}) was blocked: {blocker}', zh: '{feature}：任务 {task}（{title}）曾被阻塞：{blocker}' },
  'memory.sync.chosenOption': { en: '{feature}: chose {option}', zh: '{feature}：采用 {option}' },
  // How an entry's type reads to the person; the store keeps loom's own type words (决策, 踩坑), which loom's tools filter on.
  'memory.type.decision': { en: 'decision', zh: '决策' },
  'memory.type.pitfall': { en: 'pitfall', zh: '踩坑' },
  'memory.type.preference': { en: 'preference', zh: '偏好' },
  'memory.type.status': { en: 'status', zh: '状态' },
  'memory.type.adr': { en: 'ADR', zh: 'ADR' },
  'handOn.noBranch': {
    en: 'The branch {branch} does not exist yet: the git-worktree stage makes it (Loom: Create Worktree). Push it once it holds the feature’s commits.',
    zh: '分支 {branch} 还不存在：它由 git-worktree 阶段创建（Loom: Create Worktree）。等它有了本功能的提交再推送。',
  },
  'handOn.noRemote': {
    en: 'The repository has no remote "{remote}": add it first with `git remote add {remote} <url>`, or name another with --remote.',
    zh: '仓库没有名为“{remote}”的远程：请先用 `git remote add {remote} <url>` 添加，或用 --remote 指定另一个。',
  },
  'handOn.pushStep': { en: 'Push the branch and set its upstream:', zh: '推送分支并设置其上游：' },
  'handOn.prStep': { en: 'Open the pull request with the GitHub CLI (gh):', zh: '用 GitHub CLI（gh）创建拉取请求：' },
  'host.tree.waitsForApproval': { en: 'waiting for your approval', zh: '等待你的批准' },
  'guard.notJsonAt': { en: '{file} is not valid JSON at line {line}, column {column}: {reason}', zh: '{file} 第 {line} 行第 {column} 列不是有效的 JSON：{reason}' },
  // How each surface says the word on compression: the actor's reason names none of them.
  'cli.compressionHint': {
    en: 'Once the closed stage’s context is compressed, run it again with --compression-confirmed.',
    zh: '压缩已结束阶段的上下文后，加上 --compression-confirmed 再运行一次。',
  },
} as const satisfies MessageTable;
