import type { MessageTable } from './catalogTypes';

/**
 * Verification by Loom (src/core/verification): the words of verify-report.md, in the spec's
 * language, as loom's verification skill writes the report (checks, requirement coverage, the
 * evidence receipt, fix instructions when it fails), and what the actor answers about it. A PASS
 * report never says "fail" (loom's verify-artifacts.mjs reads any such word as a failure) nor any
 * placeholder marker (loom's checkStageOutputs).
 */
export const verificationMessages = {
  'verify.report.title': { en: '# Verification Report: {feature}', zh: '# 完成前验证报告：{feature}' },
  'verify.report.byline': {
    en: '> loom-verification-before-completion · run by Loom ({writer}) in {where} · {time}',
    zh: '> loom-verification-before-completion · 由 Loom（{writer}）在 {where} 运行 · {time}',
  },
  'verify.report.checks': { en: '## Checks', zh: '## 检查结果' },
  'verify.report.checksHeader': { en: '| Check | Result | Notes |', zh: '| 检查项 | 状态 | 说明 |' },
  'verify.report.coverage': { en: '## Requirement coverage', zh: '## 需求覆盖' },
  'verify.report.coverageHeader': { en: '| Requirement | Tasks | Tests | Result |', zh: '| 需求 | 任务 | 测试 | 状态 |' },
  'verify.report.evidence': { en: '## Evidence', zh: '## 证据' },
  'verify.report.noEvidence': { en: 'No test run to cite: the tests did not run.', zh: '没有可引用的测试运行：测试未运行。' },
  'verify.report.fixes': { en: '## Fix instructions', zh: '## 修复指令' },
  'verify.report.fixItem': { en: '### Fix item {n}', zh: '### 修复项 {n}' },
  'verify.report.problem': { en: 'Problem', zh: '问题' },
  'verify.report.file': { en: 'File', zh: '文件' },
  'verify.report.location': { en: 'Location', zh: '位置' },
  'verify.report.severity': { en: 'Severity', zh: '严重度' },
  'verify.report.direction': { en: 'Direction', zh: '修复方向' },
  'verify.report.blocking': { en: 'blocking', zh: '阻断' },
  'verify.report.skip': { en: 'SKIP', zh: '跳过' },
  'verify.report.where.worktree': { en: 'the feature worktree', zh: '功能工作树' },
  'verify.report.where.repository': { en: 'the repository', zh: '仓库' },

  'verify.check.artifacts': { en: 'Stage artifacts present', zh: '前置产出核验' },
  'verify.check.build': { en: 'Build / type checks', zh: '构建 / 类型检查' },
  'verify.check.tests': { en: 'Tests re-run', zh: '测试复跑' },
  'verify.check.placeholders': { en: 'Placeholder scan', zh: '占位符扫描' },
  'verify.check.traceability': { en: 'Traceability closed', zh: '追溯闭合' },
  'verify.check.convergence': { en: 'Convergence', zh: '收敛' },
  'verify.check.report': { en: "Report accepted by loom's check", zh: '报告通过 loom 的检查' },

  'verify.note.artifactsPresent': { en: '{files}; test-report.md says PASS with its evidence receipt', zh: '{files}；test-report.md 为 PASS 且证据收据有效' },
  'verify.note.artifactsMissing': { en: 'missing: {files}', zh: '缺少：{files}' },
  'verify.note.testReportNotPassing': { en: 'test-report.md does not say PASS with a valid evidence receipt: {reasons}', zh: 'test-report.md 没有带有效证据收据的 PASS：{reasons}' },
  'verify.note.commandPassed': { en: '`{command}` exit code 0 in {seconds} s, see {log}', zh: '`{command}` 退出码 0，耗时 {seconds} 秒，见 {log}' },
  'verify.note.commandBroke': { en: '`{command}` exit code {code}, see {log}', zh: '`{command}` 退出码 {code}，见 {log}' },
  'verify.note.commandTimedOut': { en: '`{command}` did not finish within {minutes} min, see {log}', zh: '`{command}` 未在 {minutes} 分钟内完成，见 {log}' },
  'verify.note.noBuild': { en: 'none configured (package.json scripts build / typecheck, constitution.md)', zh: '未配置（package.json 的 build / typecheck 脚本、constitution.md）' },
  'verify.note.noTestCommand': { en: 'no test command: set loom.executing.testCommand or a test script', zh: '没有测试命令：请设置 loom.executing.testCommand 或测试脚本' },
  'verify.note.placeholdersClean': { en: 'no placeholder markers in {artifacts} or in the {count} files the tasks own', zh: '{artifacts} 以及任务拥有的 {count} 个文件中没有占位符' },
  'verify.note.placeholdersFound': { en: '{count} placeholder(s): {places}', zh: '{count} 处占位符：{places}' },
  'verify.note.traceabilityClosed': { en: '{closed}/{total} behaviors have a task, a test file and evidence', zh: '{closed}/{total} 个 behavior 都有任务、测试文件和证据' },
  'verify.note.traceabilityOpen': { en: '{closed}/{total} closed; open: {open}', zh: '{closed}/{total} 已闭合；未闭合：{open}' },
  'verify.note.converged': { en: 'convergence-report.json: converged in round {round}', zh: 'convergence-report.json：第 {round} 轮收敛' },
  'verify.note.notConverged': { en: 'convergence-report.json: {status} in round {round}', zh: 'convergence-report.json：第 {round} 轮状态为 {status}' },
  'verify.note.noConvergence': { en: 'convergence-report.json is missing', zh: '缺少 convergence-report.json' },

  'verify.fix.missingArtifact': { en: '{file} is missing', zh: '缺少 {file}' },
  'verify.fix.missingArtifactDirection': { en: 'go back to the stage that writes it and let it finish', zh: '回到产出它的阶段并完成该阶段' },
  'verify.fix.testReport': { en: 'test-report.md does not pass: {reasons}', zh: 'test-report.md 未通过：{reasons}' },
  'verify.fix.testReportDirection': {
    en: 'run the executing stage again (Run Tasks) so the test reporter writes a passing report with its evidence',
    zh: '重新运行 executing 阶段（运行任务），让测试报告器写出带证据的通过报告',
  },
  'verify.fix.command': { en: '`{command}` exits with {code}', zh: '`{command}` 退出码为 {code}' },
  'verify.fix.commandDirection': {
    en: 'fix what the log reports, in implementer fix mode, then run verification again:\n\n```\n{excerpt}\n```',
    zh: '按日志所报问题以 implementer 修复模式修复，然后重新运行验证：\n\n```\n{excerpt}\n```',
  },
  'verify.fix.timeout': { en: '`{command}` did not finish within {minutes} min', zh: '`{command}` 未在 {minutes} 分钟内完成' },
  'verify.fix.timeoutDirection': { en: 'find the test that hangs (see the log) and fix it, then run verification again', zh: '从日志中找出挂起的测试并修复，然后重新运行验证' },
  'verify.fix.noTestCommand': { en: 'the project has no test command Loom can run', zh: '项目没有 Loom 可运行的测试命令' },
  'verify.fix.noTestCommandDirection': {
    en: 'set loom.executing.testCommand in .vscode/settings.json, or add a test script',
    zh: '在 .vscode/settings.json 中设置 loom.executing.testCommand，或添加测试脚本',
  },
  'verify.fix.placeholder': {
    en: 'loom\'s placeholder rule (TBD, TODO, implement later, fill in details, case ignored: verify-artifacts.mjs) matches "{placeholder}" in {file}',
    zh: 'loom 的占位符规则（TBD、TODO、implement later、fill in details，不区分大小写：verify-artifacts.mjs）匹配到 {file} 中的 "{placeholder}"',
  },
  'verify.fix.placeholderDirection': {
    en: 'reword these lines: loom refuses these words in any case, even as a domain word (write "to-do" or "task" for "todo"), or replace the placeholder with the real content',
    zh: '改写这些行：loom 不区分大小写地拒绝这些词，即使它是领域用词（例如把 "todo" 写成 "to-do" 或 "task"），或用真实内容替换占位符',
  },
  'verify.fix.codePlaceholder': { en: 'placeholder markers left in {file}: {placeholder}', zh: '{file} 中留有占位标记：{placeholder}' },
  'verify.fix.codePlaceholderDirection': { en: 'replace it with the real content', zh: '用真实内容替换它' },
  'verify.fix.loomRule': { en: '{file}: {problem}', zh: '{file}：{problem}' },
  'verify.fix.loomRuleDirection': {
    en: 'loom 3 refuses to leave verification while this holds (verify-artifacts.mjs); correct {file} and run verification again',
    zh: '只要这一点成立，loom 3 就拒绝离开验证阶段（verify-artifacts.mjs）；请修正 {file} 后重新运行验证',
  },
  'verify.fix.report': { en: "the report Loom wrote would not pass loom's check: {problem}", zh: 'Loom 写出的报告无法通过 loom 的检查：{problem}' },
  'verify.fix.reportDirection': {
    en: 'correct what the report is written from (named in the problem), then run verification again',
    zh: '修正报告所依据的内容（见问题描述），然后重新运行验证',
  },
  'verify.note.reportAccepted': {
    en: "verify-report.md passes loom's report rules (verdict, evidence, every requirement named)",
    zh: 'verify-report.md 符合 loom 的报告规则（结论、证据、每个需求都被提及）',
  },
  'verify.note.reportRefused': { en: 'loom would refuse the report: {problems}', zh: 'loom 会拒绝这份报告：{problems}' },
  'verify.fix.openBehavior': { en: '{behavior} is not closed: {missing}', zh: '{behavior} 未闭合：{missing}' },
  'verify.fix.openBehaviorDirection': {
    en: 'implement and test it (a task, a test file that exists, evidence under evidence/), then record it in traceability.json',
    zh: '实现并测试它（任务、存在的测试文件、evidence/ 下的证据），再记入 traceability.json',
  },
  'verify.fix.missingTask': { en: 'no task', zh: '没有任务' },
  'verify.fix.missingTest': { en: 'no test file that exists', zh: '没有存在的测试文件' },
  'verify.fix.missingEvidence': { en: 'no evidence file', zh: '没有证据文件' },
  'verify.fix.requirementUncovered': {
    en: '{requirement} is named in spec.md but no behavior of requirements.json covers it',
    zh: 'spec.md 提到了 {requirement}，但 requirements.json 中没有 behavior 覆盖它',
  },
  'verify.fix.requirementUncoveredDirection': {
    en: 'go back to detail expansion and give it its behaviors, or take it out of spec.md',
    zh: '回到细节展开阶段为它补充 behavior，或从 spec.md 中删除它',
  },
  'verify.fix.convergence': { en: 'convergence-report.json is {status} (round {round})', zh: 'convergence-report.json 状态为 {status}（第 {round} 轮）' },
  'verify.fix.convergenceDirection': { en: 'go back to converge and let it classify every behavior again', zh: '回到 converge 阶段重新分类每个 behavior' },
  'verify.fix.noConvergence': { en: 'convergence-report.json is missing', zh: '缺少 convergence-report.json' },

  'verify.handoff.summary': {
    en: 'verification {verdict}: artifacts, build, tests re-run (`{command}`, exit code {code}), placeholder scan, traceability {closed}/{total}, convergence',
    zh: '验证 {verdict}：产物、构建、测试复跑（`{command}`，退出码 {code}）、占位符扫描、追溯 {closed}/{total}、收敛',
  },

  // What the actor answers about Verify.
  'verify.notAtStage': { en: '{specDir} is at {stage}; verification runs at {verification}', zh: '{specDir} 处于 {stage}；验证在 {verification} 阶段运行' },
  'verify.noStage': { en: 'the {pipeline} pipeline has no verification stage', zh: '{pipeline} 流水线没有验证阶段' },
  'verify.busy': { en: 'the verification of {specDir} is already running', zh: '{specDir} 的验证已在运行' },
  'verify.untrusted': {
    en: 'verification runs the project’s build and test commands, which needs a trusted workspace; trust this folder first',
    zh: '验证会运行项目的构建和测试命令，需要受信任的工作区；请先信任此文件夹',
  },
} as const satisfies MessageTable;
