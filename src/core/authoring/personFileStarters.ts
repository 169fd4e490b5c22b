import type { PromptLanguage } from '../executing/dispatch/prompts/promptTemplates';

/**
 * The starters of the files a person may write by hand besides spec.md and requirements.json
 * (plan.md, the review files, the reports a person can write in Loom's place), in the spec's
 * language. Each place to fill is a `TODO` line, the placeholder loom's checkStageOutputs refuses
 * (artifact-checker.js `hasPlaceholder`), so an untouched starter never passes a gate.
 *
 * review-feedback.md passes loom's review gate only with `verdict: PASS` and none of the words
 * loom's checkReviewFeedbackApproval counts as blocking (BLOCKER, FAIL, CHANGES_REQUESTED…)
 * anywhere in it: those words appear only in TODO lines, which the reviewer replaces; the points
 * that must be fixed sit under a heading Answer Review reads as blocking (feedbackPoints: "Must
 * fix", "必须修复") that loom does not count.
 */
type Starter = (name: string) => string;

const EN: Readonly<Record<string, Starter>> = {
  'plan.md': (name) => `# Plan: ${name}

TODO: The approach in a few sentences: the modules touched and why this order.

## Tasks

| Task | Title | Requirements |
|---|---|---|
| [T1](tasks/T1.md) | TODO: the first task | REQ-001 |

Each task is a file under \`tasks/\` (\`tasks/T1.md\`) with \`owns\`, \`depends_on\`, \`requirements\` and \`behavior_ids\` in its front matter.
`,
  'review-request.md': (name) => `# Code review request: ${name}

**Feature:** \`${name}\`
**Branch:** TODO: the feature branch

## What changed

1. TODO: the first change, and why

## Requirements covered

- TODO: REQ-001, and how it is shown (tests, verify-report.md)

## Where to look closely

1. TODO: the part a reviewer should read first, and why

## Self-check

- [ ] Build and type checks pass
- [ ] The tests pass (test-report.md, verify-report.md)
`,
  'review-feedback.md': (name) => `# Code review: ${name}

reviewer: TODO: your name
verdict: TODO: PASS when nothing must be fixed before merging; else FAIL

## Must fix

- TODO: \`src/file.js:12\` what is wrong and why (Loom: Answer Review sends each point here to the task that owns the file; delete this line when there is none)

## Suggestions

- TODO: \`src/file.js:20\` what could be better (delete this line when there is none)

## Questions

- TODO: what you would like explained (delete this line when there is none)
`,
  'review-response.md': (name) => `# Response to the code review: ${name}

verdict: TODO: PASS once every point that must be fixed is fixed and the tests pass again

## Fixed

- TODO: the point, the task that fixed it and the files it changed

## Declined

- TODO: the suggestion, and why it is not taken

## Discussed

- TODO: the question, and the answer
`,
  'test-report.md': (name) => `# Test report: ${name}

verdict: TODO: PASS or FAIL
evidence-command: TODO: the command that ran the tests
evidence-exit-code: TODO: its exit code
evidence-file: TODO: evidence/<the log>.log
evidence-sha256: TODO: the sha256 of that log

## Results

- TODO: REQ-001-B01: the test file and test that shows it
`,
  'verify-report.md': (name) => `# Verification: ${name}

verdict: TODO: PASS or FAIL
evidence-command: TODO: the command that ran the checks
evidence-exit-code: TODO: its exit code
evidence-file: TODO: evidence/<the log>.log
evidence-sha256: TODO: the sha256 of that log

## Checks

- TODO: build, type checks and tests, each with its result

## Requirements

- TODO: REQ-001: its tasks, tests and evidence
`,
};

const ZH: Readonly<Record<string, Starter>> = {
  'plan.md': (name) => `# 计划：${name}

TODO：用几句话说明做法：改动哪些模块、为什么按这个顺序。

## 任务

| 任务 | 标题 | 需求 |
|---|---|---|
| [T1](tasks/T1.md) | TODO：第一个任务 | REQ-001 |

每个任务是 \`tasks/\` 下的一个文件（\`tasks/T1.md\`），其 front matter 写明 \`owns\`、\`depends_on\`、\`requirements\` 与 \`behavior_ids\`。
`,
  'review-request.md': (name) => `# 代码审查请求：${name}

**功能：** \`${name}\`
**分支：** TODO：功能分支

## 主要变更

1. TODO：第一处变更及其原因

## 覆盖的需求

- TODO：REQ-001，以及如何证明（测试、verify-report.md）

## 重点关注

1. TODO：审查者应先读的部分及原因

## 自测情况

- [ ] 构建与类型检查通过
- [ ] 测试通过（test-report.md、verify-report.md）
`,
  'review-feedback.md': (name) => `# 代码审查：${name}

审查者: TODO：你的名字
verdict: TODO：合并前没有必须修改之处时写 PASS，否则写 FAIL

## 必须修复

- TODO：\`src/file.js:12\` 问题是什么、为什么（Loom: Answer Review 会把这里的每一点交给拥有该文件的任务；没有时删除此行）

## 建议

- TODO：\`src/file.js:20\` 可以改进之处（没有时删除此行）

## 讨论

- TODO：希望得到解释的地方（没有时删除此行）
`,
  'review-response.md': (name) => `# 代码审查回复：${name}

verdict: TODO：每个必须修复的点都已修复、测试重新通过后写 PASS

## 已修复

- TODO：该点、修复它的任务及改动的文件

## 未采纳

- TODO：该建议，以及不采纳的理由

## 讨论

- TODO：该问题及回答
`,
  'test-report.md': (name) => `# 测试报告：${name}

verdict: TODO：PASS 或 FAIL
evidence-command: TODO：运行测试的命令
evidence-exit-code: TODO：它的退出码
evidence-file: TODO：evidence/<日志>.log
evidence-sha256: TODO：该日志的 sha256

## 结果

- TODO：REQ-001-B01：证明它的测试文件与测试
`,
  'verify-report.md': (name) => `# 验证报告：${name}

verdict: TODO：PASS 或 FAIL
evidence-command: TODO：运行检查的命令
evidence-exit-code: TODO：它的退出码
evidence-file: TODO：evidence/<日志>.log
evidence-sha256: TODO：该日志的 sha256

## 检查

- TODO：构建、类型检查与测试，各自的结果

## 需求

- TODO：REQ-001：其任务、测试与证据
`,
};

const STARTERS: Readonly<Record<PromptLanguage, Readonly<Record<string, Starter>>>> = { en: EN, zh: ZH };

/** The files this module has a starter for. */
export const PERSON_FILES: readonly string[] = Object.keys(EN);

/** The starter of a file a person may write, in the spec's language; undefined for a file without one. */
export function personFileStarter(file: string, specName: string, language: PromptLanguage): string | undefined {
  const table = STARTERS[language];
  return Object.hasOwn(table, file) ? table[file](specName) : undefined;
}
