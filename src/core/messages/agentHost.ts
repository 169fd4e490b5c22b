import type { MessageTable } from './catalogTypes';

/**
 * What the skills and agents Loom contributes to VS Code's agents say around the stage texts they
 * share with `@loom` and Run Tasks (src/core/agentHost/skills.ts): how to find where the spec
 * stands, how to check and move on through Loom's MCP tools, and where the person decides.
 * Tool names stay English in both languages: the agent calls them by name.
 */
export const agentHostMessages = {
  'agentHost.skill.title': { en: '# Loom: {stage}', zh: '# Loom：{stage}' },
  'agentHost.skill.description': {
    en: '{what}. Use when a Loom spec (specs/<name>/pipeline.state.json) is at {stages}: what the stage needs, which of Loom’s MCP tools to call, and where to stop for the person.',
    zh: '{what}。当 Loom 规格（specs/<name>/pipeline.state.json）处于 {stages} 时使用：该阶段需要什么、调用 Loom 的哪些 MCP 工具、在哪里停下来询问用户。',
  },
  'agentHost.skill.language': {
    en: 'Work and write in the language the spec is written in. When its files are in Chinese, follow [{file}]({file}) instead of this file.',
    zh: '用规格所用的语言工作和书写。规格文件是英文时，请改按 [{file}]({file}) 执行。',
  },
  // How the skills join loom's texts in each language, and the file that holds the other language.
  'agentHost.join.list': { en: ', ', zh: '、' },
  'agentHost.join.clauses': { en: '; ', zh: '；' },
  'agentHost.join.end': { en: '.', zh: '。' },
  'agentHost.skill.otherFile': { en: 'zh.md', zh: 'SKILL.md' },
  'agentHost.heading.status': { en: '## First: where the spec stands', zh: '## 第一步：规格处于哪个阶段' },
  'agentHost.status.context': {
    en: '1. Call `loom_get_pipeline_context` with the spec’s `spec_dir`; when the person named no spec, call `loom_get_project_status` and then `loom_attach_spec`. If Loom’s server lists only its meta tools, call `loom_load_tool_group` with `pipeline` first.',
    zh: '1. 用规格的 `spec_dir` 调用 `loom_get_pipeline_context`；用户没有指明规格时，先调用 `loom_get_project_status`，再调用 `loom_attach_spec`。若 Loom 的服务器只列出 meta 工具，先用 `pipeline` 调用 `loom_load_tool_group`。',
  },
  'agentHost.status.only': {
    en: '2. Go on only while `current_stage` is {stages}. At another stage, use that stage’s Loom skill ({skill} tells which), and tell the person where the spec stands.',
    zh: '2. 只有当 `current_stage` 为 {stages} 时才继续。处于其他阶段时，改用该阶段的 Loom 技能（见 {skill}），并告诉用户规格目前的位置。',
  },
  'agentHost.heading.needs': { en: '## What this stage needs', zh: '## 本阶段需要什么' },
  'agentHost.needs.before': { en: 'Loom checks these before the stage:', zh: '进入本阶段前 Loom 会检查：' },
  'agentHost.needs.ways': { en: 'Ways on from the stage:', zh: '离开本阶段的去向：' },
  'agentHost.heading.work': { en: '## How to do the work', zh: '## 如何完成工作' },
  'agentHost.work.files': {
    en: 'Write the stage’s files yourself with your editing tools, each one complete, in the spec’s folder. Where the text below speaks of file blocks or drafts, that is `@loom`’s chat format: here you edit the files directly.',
    zh: '用你的编辑工具亲自写入本阶段的文件，每个文件写完整，放在规格目录中。下文如提到文件块或草稿，那是 `@loom` 聊天的格式：在这里你直接编辑文件。',
  },
  'agentHost.heading.check': { en: '## Check, then move on only through Loom', zh: '## 先检查，再只通过 Loom 前进' },
  'agentHost.check.run': {
    en: '- Run {tools} and fix what they report until they pass. Never say a check passed without running it.',
    zh: '- 运行 {tools}，修复它们报告的问题直到通过。没有运行过的检查，不要说它已通过。',
  },
  'agentHost.check.advance': {
    en: '- When the checks pass, record the stage with `loom_stage_checkpoint`, then move on with `loom_advance_pipeline` (when Loom answers `compression_required`, compress the closed stage’s context first and call again with `compression_confirmed: true`). When Loom refuses, read its `error` and `hint`, fix the cause and call again; never work around a refusal.',
    zh: '- 检查通过后，用 `loom_stage_checkpoint` 记录本阶段，再用 `loom_advance_pipeline` 前进（Loom 回答 `compression_required` 时，先压缩已结束阶段的上下文，再带 `compression_confirmed: true` 重新调用）。Loom 拒绝时，阅读其 `error` 和 `hint`，修复原因后再次调用；绝不绕过拒绝。',
  },
  'agentHost.heading.gate': { en: '## Gates need the person', zh: '## 门禁需要用户本人' },
  'agentHost.gate.body': {
    en: 'When `is_gate` is true, or Loom answers that the step needs approval, stop. Show the person what they are approving (the files, and what changed) and ask them. Call `loom_approve_gate` only after the person said yes in this conversation, never on your own judgement; when the client asks the person itself, leave the answer to them. A team can make Loom hold to this: with `loom.approvals.requirePerson` on, Loom refuses an approval that is only your word.',
    zh: '当 `is_gate` 为 true，或 Loom 回答该步骤需要审批时，停下来。向用户展示要审批的内容（文件及其改动）并询问用户。只有在用户于本次对话中明确同意后才调用 `loom_approve_gate`，绝不凭自己的判断；客户端自己询问用户时，把回答留给用户。团队可以让 Loom 强制这一点：开启 `loom.approvals.requirePerson` 后，Loom 会拒绝仅凭你的转述的审批。',
  },
  'agentHost.heading.never': { en: '## Never', zh: '## 绝不' },
  'agentHost.never.stateFiles': {
    en: '- Edit `pipeline.state.json`, `task-states/`, `handoffs/` or `progress.md` yourself: Loom’s tools write them (`loom_update_task_state`, `loom_write_handoff`, `loom_stage_checkpoint`).',
    zh: '- 自己编辑 `pipeline.state.json`、`task-states/`、`handoffs/` 或 `progress.md`：它们由 Loom 的工具写入（`loom_update_task_state`、`loom_write_handoff`、`loom_stage_checkpoint`）。',
  },
  'agentHost.never.skip': { en: '- Skip a stage, or move a spec to another stage by hand.', zh: '- 跳过某个阶段，或手动把规格移到其他阶段。' },
  'agentHost.never.approve': { en: '- Approve or confirm anything for the person.', zh: '- 替用户审批或确认任何事情。' },

  // Stages with no `@loom` drafting prompt: what their skill asks for.
  'agentHost.executing.work': {
    en: 'At `approved` the person starts execution: ask them, then `loom_advance_pipeline` moves on to the worktree and to `executing`. Then, task by task in the order `loom_tasks` gives (a task runs once its depends_on are done):\n1. `loom_update_task_state` with `status: executing`.\n2. Hand the task to the `loom-implementer` subagent with the spec folder and the task id; it writes only inside the task’s owns, with persistent tests named after each behavior id.\n3. Hand its change to the `loom-reviewer` subagent. On `verdict: FAIL`, send the reviewer’s fix instructions back to the implementer (fix mode: only those items) and review again.\n4. When the review passes and the tests pass, `loom_update_task_state` with `status: done`, and `loom_write_handoff` with the `task_id`, a summary and the files it changed.\nA task answered NEEDS_CONTEXT or BLOCKED goes to the person with its question; mark it `blocked` with the reason. When every task is done, run the project’s tests and write test-report.md: what ran, what passed, and its verdict line.',
    zh: '在 `approved` 阶段由用户启动执行：先询问用户，然后用 `loom_advance_pipeline` 前进到 worktree 和 `executing`。之后按 `loom_tasks` 给出的顺序逐个处理 task（task 的 depends_on 完成后才能开始）：\n1. 用 `loom_update_task_state` 设为 `status: executing`。\n2. 把规格目录和 task id 交给 `loom-implementer` subagent；它只能写入该 task 的 owns，并为每个 behavior id 编写以其命名的持久化测试。\n3. 把改动交给 `loom-reviewer` subagent 审查。若 `verdict: FAIL`，把审查者的修复指令发回 implementer（修复模式：只处理这些修复项），然后再次审查。\n4. 审查通过且测试通过后，用 `loom_update_task_state` 设为 `status: done`，并用 `loom_write_handoff` 写入 `task_id`、摘要和修改的文件。\n回答 NEEDS_CONTEXT 或 BLOCKED 的 task 连同问题交给用户；用原因把它标记为 `blocked`。所有 task 完成后，运行项目测试并写 test-report.md：运行了什么、通过了什么，以及结论行。',
  },
  'agentHost.verification.work': {
    en: 'At `converge`, `loom_converge` classifies every behavior against the code and tests, and `loom_omission_hunt` looks for what was left out: missing or partial behaviors become new tasks and go back to executing. At `verification`, run the build and every test, look for placeholders (TBD, TODO, FIXME) and for types that disagree, and read each requirement against the code. Write verify-report.md: what ran, what you found (BLOCKER or SUGGESTION, with file and line), and its verdict line. BLOCKERs go back to the implementer in fix mode.',
    zh: '在 `converge` 阶段，`loom_converge` 对照代码和测试为每个 behavior 分类，`loom_omission_hunt` 查找遗漏：missing 或 partial 的 behavior 生成新 task 回流 executing。在 `verification` 阶段，运行构建和全部测试，查找占位符（TBD、TODO、FIXME）和不一致的类型，并逐条对照需求阅读代码。写 verify-report.md：运行了什么、发现了什么（BLOCKER 或 SUGGESTION，附文件和行号），以及结论行。BLOCKER 以修复模式派回 implementer。',
  },
  'agentHost.sync.work': {
    en: 'The feature is done. Record what the next feature should know with `loom_add_memory` (a decision, a pitfall, a preference), each entry short and concrete; read what is there first with `loom_get_memory` so nothing is recorded twice. Then tell the person the branch is ready for a pull request.',
    zh: '功能已完成。用 `loom_add_memory` 记录下一个功能需要知道的内容（决策、踩坑、偏好），每条简短具体；先用 `loom_get_memory` 读取已有内容，避免重复记录。然后告诉用户该分支可以提交 PR。',
  },
  'agentHost.reviewGate.work': {
    en: 'At `review-gate` the request is out and the reviewer answers in review-feedback.md. Wait for it: tell the person, and stop. Once the file exists, the person approves the gate (see below).',
    zh: '在 `review-gate` 阶段，审查请求已发出，审查者在 review-feedback.md 中回复。等待反馈：告诉用户并停下。该文件存在后，由用户审批此门禁（见下文）。',
  },
  'agentHost.status.work': {
    en: 'Answer where each spec stands and what comes next, from Loom’s own answers, never from reading the state files:\n- `loom_get_project_status` lists the specs with their stage and tasks; `loom_get_pipeline_context` gives one spec’s `current_stage`, `is_gate`, `next_stage`, what the stage must produce (`constraints`), and `forbidden_actions`.\n- Say the stage in a sentence, what is missing before it can move on (run `loom_check_stage` for the current stage’s checks), whether a gate waits for the person, and which skill does the next step:',
    zh: '根据 Loom 自身的回答说明每个规格处于哪个阶段、下一步做什么，绝不通过阅读状态文件判断：\n- `loom_get_project_status` 列出各规格的阶段和 task；`loom_get_pipeline_context` 给出单个规格的 `current_stage`、`is_gate`、`next_stage`、本阶段必须产出的内容（`constraints`）和 `forbidden_actions`。\n- 用一句话说明阶段、前进之前还缺什么（用 `loom_check_stage` 运行当前阶段的检查）、是否有门禁等待用户，以及由哪个技能完成下一步：',
  },
  'agentHost.status.row': { en: '  - {stages}: `{skill}`', zh: '  - {stages}：`{skill}`' },
  'agentHost.status.description': {
    en: 'Say where a Loom spec stands and what to do next. Use when the person asks where a spec (specs/<name>/pipeline.state.json) stands, what comes next, or which Loom stage or skill applies.',
    zh: '说明 Loom 规格处于哪个阶段、下一步做什么。当用户询问规格（specs/<name>/pipeline.state.json）处于哪里、下一步是什么，或适用哪个 Loom 阶段或技能时使用。',
  },
  'agentHost.status.title': { en: 'where a spec stands, and what next', zh: '规格处于哪个阶段，下一步做什么' },

  // The agents (src/core/agentHost/agents.ts): the Loom agent and the subagents it runs for each task.
  'agentHost.agent.description': {
    en: 'Drive a Loom spec through its pipeline with Loom’s MCP tools: brainstorm, expand, plan, run the tasks with implementer and reviewer subagents, verify, review. Stops for the person at every gate.',
    zh: '用 Loom 的 MCP 工具推动 Loom 规格走完流水线：头脑风暴、展开、计划、用 implementer 和 reviewer subagent 执行 task、验证、审查。每个门禁都停下来询问用户。',
  },
  'agentHost.agent.hint': { en: 'a spec folder (specs/<name>) or an idea for a new feature', zh: '规格目录（specs/<name>）或新功能的想法' },
  'agentHost.agent.intro': {
    en: 'You are Loom’s agent. You move one spec at a time through loom’s pipeline; Loom’s MCP server (its tools start with `loom_`) holds the state and the rules, and you follow its answers. The gates hold in Loom’s tools, whatever a handoff or a shortcut suggests.',
    zh: '你是 Loom 的 agent。你每次推动一个规格走完 loom 的流水线；Loom 的 MCP 服务器（工具名以 `loom_` 开头）保存状态和规则，你按它的回答行事。无论 handoff 或捷径怎么提示，门禁都由 Loom 的工具把守。',
  },
  'agentHost.agent.skills': {
    en: 'Each stage has a Loom skill with what the stage needs; load the one for the spec’s `current_stage`:',
    zh: '每个阶段都有一个 Loom 技能说明该阶段需要什么；加载与规格 `current_stage` 对应的技能：',
  },
  'agentHost.agent.subagents': {
    en: 'At `executing`, run each task with the `{implementer}` subagent and check it with the `{reviewer}` subagent; pass them the spec folder, the task id and, in fix mode, the reviewer’s fix instructions. You record their results with Loom’s tools; they never do.',
    zh: '在 `executing` 阶段，用 `{implementer}` subagent 执行每个 task，用 `{reviewer}` subagent 审查；把规格目录、task id，以及修复模式下审查者的修复指令交给它们。由你用 Loom 的工具记录它们的结果，它们从不记录。',
  },
  'agentHost.implementer.description': {
    en: 'Implements one task of a Loom spec inside the task’s owns, with persistent tests per behavior (run by Loom’s agent).',
    zh: '在 task 的 owns 范围内实现 Loom 规格的一个 task，并为每个 behavior 编写持久化测试（由 Loom 的 agent 调用）。',
  },
  'agentHost.reviewer.description': {
    en: 'Reviews one task of a Loom spec for spec compliance and code quality, and answers with fix instructions and a verdict (run by Loom’s agent).',
    zh: '从 spec 合规和代码质量两方面审查 Loom 规格的一个 task，并给出修复指令和结论（由 Loom 的 agent 调用）。',
  },
  'agentHost.sub.intro': {
    en: 'Loom’s agent gives you the spec folder (specs/<name>) and the task id (TN). Read what the sections below point to from the repository yourself.',
    zh: 'Loom 的 agent 会给你规格目录（specs/<name>）和 task id（TN）。下文各节指向的内容请自行从仓库读取。',
  },
  'agentHost.sub.taskId': { en: 'TN', zh: 'TN' },
  'agentHost.sub.taskTitle': { en: 'titled in tasks/TN.md', zh: '标题见 tasks/TN.md' },
  'agentHost.sub.specName': { en: 'named by Loom’s agent', zh: '由 Loom 的 agent 指定' },
  'agentHost.sub.owns': { en: 'the paths in `owns:` of the task file’s frontmatter', zh: 'task 文件 frontmatter 中 `owns:` 列出的路径' },
  'agentHost.sub.taskFile': { en: 'Read specs/<name>/tasks/TN.md.', zh: '阅读 specs/<name>/tasks/TN.md。' },
  'agentHost.sub.requirements': {
    en: 'Read the entries of specs/<name>/requirements.json that the task lists in `requirements:` and `behavior_ids:`.',
    zh: '阅读 specs/<name>/requirements.json 中该 task 在 `requirements:` 和 `behavior_ids:` 中列出的条目。',
  },
  'agentHost.sub.traceability': { en: 'Read the task’s entries in specs/<name>/traceability.json.', zh: '阅读 specs/<name>/traceability.json 中该 task 的条目。' },
  'agentHost.sub.specSections': { en: 'Read the sections of specs/<name>/spec.md that name the task’s requirement ids.', zh: '阅读 specs/<name>/spec.md 中写有该 task 需求 id 的章节。' },
  'agentHost.sub.handoffs': {
    en: 'Read specs/<name>/handoffs/TK.json of each task TK in the task’s `depends_on:`, when it exists.',
    zh: '若存在，阅读该 task `depends_on:` 中每个 task TK 的 specs/<name>/handoffs/TK.json。',
  },
  'agentHost.sub.context': { en: 'Read .loom/contexts/subagent-context.md when it exists.', zh: '若存在，阅读 .loom/contexts/subagent-context.md。' },
  'agentHost.sub.constitution': { en: 'Read .loom/rules/constitution.md when it exists.', zh: '若存在，阅读 .loom/rules/constitution.md。' },
  'agentHost.sub.fixInstructions': { en: 'The fix instructions Loom’s agent passes you.', zh: 'Loom 的 agent 交给你的修复指令。' },
  'agentHost.sub.requirementLines': { en: 'The requirement and behavior lines of the fix instructions.', zh: '修复指令中的需求和 behavior 行。' },
  'agentHost.sub.behaviors': {
    en: 'Read the task’s behaviors (`behavior_ids:`) in specs/<name>/requirements.json.',
    zh: '阅读 specs/<name>/requirements.json 中该 task 的 behavior（`behavior_ids:`）。',
  },
  'agentHost.sub.report': { en: 'The implementer’s report, as Loom’s agent passes it.', zh: 'Loom 的 agent 转交的 implementer 报告。' },
  'agentHost.sub.diff': {
    en: 'Run `git diff` against the commit Loom’s agent names as the task’s start (or `git diff HEAD` when it names none).',
    zh: '对 Loom 的 agent 指定的 task 起点提交运行 `git diff`（未指定时运行 `git diff HEAD`）。',
  },
  'agentHost.sub.fixMode': { en: '# Fix mode', zh: '# 修复模式' },
  'agentHost.sub.fixModeWhen': {
    en: 'When Loom’s agent sends fix instructions instead of a new task, follow these rules only:',
    zh: '当 Loom 的 agent 发来的是修复指令而不是新 task 时，只按以下规则执行：',
  },

  // The team's rule loom.approvals.requirePerson, as the actor refuses an agent's word (src/core/pipeline/personRule.ts).
  'agentHost.refusal.personRequired': {
    en: '{specDir} cannot leave {stage} on an agent’s word: the team requires the person’s own approval (loom.approvals.requirePerson)',
    zh: '{specDir} 不能凭 agent 的转述离开 {stage}：团队要求由用户本人审批（loom.approvals.requirePerson）',
  },
  'agentHost.refusal.through': { en: 'the word came through {through}, which no person answered', zh: '该确认来自 {through}，没有用户本人作答' },
  'agentHost.refusal.agentWord': { en: 'the word is the agent’s report that the person agreed', zh: '该确认只是 agent 转述用户已同意' },
  'agentHost.refusal.howToApprove': {
    en: 'the person approves it: Loom: Approve or Advance in VS Code, the MCP client’s own question (elicitation), VS Code’s tool confirmation, or loom-vscode approve in a terminal',
    zh: '请用户本人审批：VS Code 中的 Loom: Approve 或 Advance、MCP 客户端自身的提问（elicitation）、VS Code 的工具确认，或在终端中运行 loom-vscode approve',
  },
  'agentHost.refusal.mcpHint': {
    en: 'stop and ask the person to approve it themselves; do not call again until they did',
    zh: '请停下来，请用户本人审批；在用户审批之前不要再次调用',
  },

  // Who approved a stage, in the Loom view (src/host/tree/approvedBy.ts); the channel stays its stable English name.
  'agentHost.tree.approvedByPerson': { en: 'by the person, through {through}', zh: '由用户本人审批，经由 {through}' },
  'agentHost.tree.approvedByAgent': { en: 'on an agent’s word, through {through}', zh: '凭 agent 转述审批，经由 {through}' },
  'agentHost.tree.approvedOnAgentWord': { en: 'approved on an agent’s word', zh: '凭 agent 转述已审批' },

  // The plugin's Stop and SubagentStop hooks (src/core/agentHost/stopCheck.ts): why the agent is kept working.
  'agentHost.stop.taskUnderWay': {
    en: '{specDir}: task {task} is {status}, not done: finish it (its review and its tests pass), then record it with loom_update_task_state and loom_write_handoff',
    zh: '{specDir}：task {task} 处于 {status}，尚未完成：完成它（审查和测试通过），再用 loom_update_task_state 和 loom_write_handoff 记录',
  },
  'agentHost.stop.tasksLeft': {
    en: '{specDir}: the tasks {tasks} are still pending in a run that has begun: go on with the next one, or tell the person why not',
    zh: '{specDir}：已开始的执行中仍有 task {tasks} 待处理：继续下一个，或告诉用户为什么不继续',
  },
  'agentHost.stop.testsFail': {
    en: '{specDir}: the tests fail (`{command}` in {cwd}, exit {code}); a task is done when they pass: fix the code, not the tests, unless a test is wrong\n{output}',
    zh: '{specDir}：测试失败（在 {cwd} 运行 `{command}`，退出码 {code}）；测试通过 task 才算完成：修改代码而不是测试，除非测试本身有误\n{output}',
  },
  'agentHost.stop.testsTimedOut': {
    en: '{specDir}: `{command}` did not finish in {seconds} s, so Loom could not tell whether the tests pass; run them before you say the task is done',
    zh: '{specDir}：`{command}` 未在 {seconds} 秒内结束，Loom 无法判断测试是否通过；在说 task 完成之前先运行测试',
  },
  'agentHost.stop.testsNotRun': {
    en: '{specDir}: `{command}` could not be started ({detail}); the tests were not checked',
    zh: '{specDir}：`{command}` 无法启动（{detail}）；未检查测试',
  },
  'agentHost.stop.newErrors': {
    en: 'Errors in the specs’ files that were not there when this session began (loom-vscode validate lists them all); fix them:\n{errors}',
    zh: '本次会话开始时不存在的 spec 文件错误（loom-vscode validate 会全部列出）；请修复：\n{errors}',
  },

  // Loom: Write .mcp.json (src/host/commands/mcpJsonCommand.ts).
  'agentHost.mcpJson.unreadable': { en: '{file} cannot be read ({detail}); fix it by hand, nothing was written', zh: '{file} 无法读取（{detail}）；请手动修复，未写入任何内容' },
  'agentHost.mcpJson.written': { en: 'Loom’s MCP server is in {file}: loom-vscode mcp', zh: 'Loom 的 MCP 服务器已写入 {file}：loom-vscode mcp' },
  'agentHost.mcpJson.unchanged': { en: '{file} already starts Loom’s MCP server', zh: '{file} 已经会启动 Loom 的 MCP 服务器' },
  'agentHost.mcpJson.whichFolder': { en: 'Which folder’s .mcp.json?', zh: '写入哪个文件夹的 .mcp.json？' },

  // How the implementer runs the tests: through Run Tasks' own tool, or, as a VS Code subagent, in the terminal.
  'prompt.runTests.tool': { en: 'the loom_run_tests tool ({command})', zh: ' loom_run_tests 工具（{command}）' },
  'prompt.runTests.terminal': { en: 'the project’s test command in the terminal', zh: '终端中的项目测试命令' },
} as const satisfies MessageTable;
