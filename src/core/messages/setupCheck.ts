import type { MessageTable } from './catalogTypes';

/** Loom: Check Setup (issue 49): each thing a first run needs, what was found, and the fix. */
export const setupCheckMessages = {
  'setup.title': { en: 'Loom: Check Setup', zh: 'Loom：检查设置' },
  'setup.allGood': { en: 'Everything a run needs is there.', zh: '运行所需的一切均已就绪。' },
  'setup.missingCount': { en: '{count, plural, one {# thing is} other {# things are}} missing: {first}', zh: '缺少 {count} 项：{first}' },
  'setup.stoppedAt': { en: 'Loom did not start the run: {item}. {fix}', zh: 'Loom 未开始运行：{item}。{fix}' },

  'setup.trust.title': { en: 'Workspace trust', zh: '工作区信任' },
  'setup.trust.ok': { en: 'the workspace is trusted', zh: '工作区已受信任' },
  'setup.trust.missing': { en: 'the workspace is not trusted, so Loom may not run the project’s commands or models', zh: '工作区未受信任，Loom 不能运行项目的命令或模型' },
  'setup.trust.fix': { en: 'Trust the workspace (Manage Workspace Trust).', zh: '信任此工作区（管理工作区信任）。' },

  'setup.model.title': { en: 'A chat model for Loom', zh: '可供 Loom 使用的聊天模型' },
  'setup.model.ok': { en: '{count, plural, one {# model} other {# models}} available ({names})', zh: '可用模型 {count} 个（{names}）' },
  'setup.model.missing': { en: 'no chat model is available to Loom{where}', zh: 'Loom 没有可用的聊天模型{where}' },
  'setup.model.fix': {
    en: 'Install and sign in to a language model provider (GitHub Copilot Chat, for example), or change loom.models.vendor.',
    zh: '安装并登录一个语言模型提供方（例如 GitHub Copilot Chat），或修改 loom.models.vendor。',
  },
  'setup.model.vendor': { en: ' from vendor "{vendor}" (loom.models.vendor)', zh: '（供应商“{vendor}”，loom.models.vendor）' },

  'setup.consent.title': { en: 'Permission to use the model', zh: '使用模型的许可' },
  'setup.consent.ok': { en: 'Loom may use {model}', zh: 'Loom 可以使用 {model}' },
  'setup.consent.notAsked': {
    en: 'VS Code will ask you once to let Loom use {model}, on Loom’s first request',
    zh: 'Loom 第一次请求时，VS Code 会询问你是否允许 Loom 使用 {model}',
  },
  'setup.consent.missing': { en: 'Loom was not allowed to use {model}', zh: 'Loom 未被允许使用 {model}' },
  'setup.consent.fix': {
    en: 'Allow it under Accounts → Manage Language Model Access (or send the test request below and allow it).',
    zh: '在“帐户 → 管理语言模型访问”中允许它（或发送下面的测试请求并允许）。',
  },

  'setup.tiers.title': { en: 'Model tiers (fast, standard, strongest)', zh: '模型档位（fast、standard、strongest）' },
  'setup.tiers.ok': { en: 'each tier has a model', zh: '每个档位都有模型' },
  'setup.tiers.missing': { en: 'the {tier} tier has no model: {hint}', zh: '{tier} 档位没有模型：{hint}' },
  'setup.tiers.fix': { en: 'Pick an installed model family for loom.models.{tier}, or clear the setting.', zh: '为 loom.models.{tier} 选择已安装的模型系列，或清除该设置。' },

  'setup.tools.title': { en: 'Loom’s tools for the agent', zh: '供智能体使用的 Loom 工具' },
  'setup.tools.ok': { en: '{count, plural, one {# tool} other {# tools}} registered', zh: '已注册 {count} 个工具' },
  'setup.tools.missing': { en: 'Loom’s tools are not there for the agent: {missing}', zh: '智能体无法使用 Loom 的工具：{missing}' },
  'setup.tools.disabledBy': { en: 'the setting {setting} is off', zh: '设置 {setting} 已关闭' },
  'setup.tools.fix': {
    en: 'Turn the setting on, and tick Loom’s tools in the Chat view’s Configure Tools list.',
    zh: '打开该设置，并在聊天视图的“配置工具”列表中勾选 Loom 的工具。',
  },

  'setup.git.title': { en: 'A git repository', zh: 'git 仓库' },
  'setup.git.ok': { en: '{root}', zh: '{root}' },
  'setup.git.missing': { en: 'the workspace folder is not in a git repository{detail}', zh: '工作区文件夹不在 git 仓库中{detail}' },
  'setup.git.fix': { en: 'Initialize one (Source Control: Initialize Repository, or git init).', zh: '初始化一个仓库（源代码管理：初始化仓库，或 git init）。' },

  'setup.commit.title': { en: 'A first commit', zh: '第一次提交' },
  'setup.commit.ok': { en: 'HEAD is {head}', zh: 'HEAD 为 {head}' },
  'setup.commit.missing': { en: 'the repository has no commit yet, so no feature worktree can branch from it', zh: '仓库还没有提交，功能 worktree 无法从中分支' },
  'setup.commit.fix': { en: 'Commit the project’s files once (Source Control: Commit).', zh: '先提交一次项目文件（源代码管理：提交）。' },

  'setup.test.title': { en: 'A test command', zh: '测试命令' },
  'setup.test.ok': { en: '{command}', zh: '{command}' },
  'setup.test.missing': {
    en: 'no test command was found (no test script in package.json, no pytest, go, cargo or make test)',
    zh: '未找到测试命令（package.json 无 test 脚本，也没有 pytest、go、cargo 或 make test）',
  },
  'setup.test.fix': { en: 'Set loom.executing.testCommand, or add a test script to package.json.', zh: '设置 loom.executing.testCommand，或在 package.json 中添加 test 脚本。' },

  'setup.worktree.title': { en: 'Where feature worktrees go', zh: '功能 worktree 的位置' },
  'setup.worktree.ok': { en: '{path} is writable', zh: '{path} 可写' },
  'setup.worktree.missing': { en: '{path} cannot be written: {detail}', zh: '{path} 无法写入：{detail}' },
  'setup.worktree.fix': { en: 'Choose a folder you can write in loom.worktree.location.', zh: '在 loom.worktree.location 中选择一个可写的文件夹。' },

  'setup.request.title': { en: 'Send one small request to {model}', zh: '向 {model} 发送一个小请求' },
  'setup.request.ok': { en: '{model} answered in {ms} ms: {input} input and {output} output tokens', zh: '{model} 在 {ms} 毫秒内回答：输入 {input} 个 token，输出 {output} 个 token' },
  'setup.request.failed': { en: '{model} did not answer: {reason}', zh: '{model} 没有回答：{reason}' },
  'setup.request.prompt': { en: 'Reply with the single word: ready', zh: '只回复一个词：ready' },
  'setup.request.cost': { en: 'It cost {credits} AI credits.', zh: '花费 {credits} AI credits。' },
  'host.setup.fix': { en: 'Fix: {what}', zh: '修复：{what}' },
} as const satisfies MessageTable;
