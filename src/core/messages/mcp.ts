import type { MessageTable } from './catalogTypes';

/**
 * What loom's MCP server (src/mcp) answers a person or an agent in words: refusals and their
 * hints, the questions put to the person through elicitation, and the readable parts of results.
 * Each refusal also carries a stable English `code`; tool and input descriptions stay English.
 */
export const mcpMessages = {
  // Hints shared by several refusals.
  'mcp.hint.fixFile': { en: 'fix or restore the file by hand, then call again', zh: '请手动修复或恢复该文件，然后再次调用' },
  'mcp.hint.askUser': { en: 'ask the user what is missing, then call again', zh: '请询问用户还缺少什么，然后再次调用' },
  'mcp.hint.stages': { en: 'the stages are {stages}', zh: '阶段有：{stages}' },
  'mcp.stage.unknown': { en: 'an unknown stage', zh: '未知阶段' },

  // Paths, the project root and the spec a call names (src/mcp/paths.ts, specAccess.ts).
  'mcp.path.specDirEscapes': {
    en: 'spec_dir "{input}" escapes the repository {root}; nothing was read or written',
    zh: 'spec_dir "{input}" 超出了仓库 {root}；未读取或写入任何内容',
  },
  'mcp.path.artifactEscapes': {
    en: 'artifact "{input}" escapes the repository {root}; nothing was read or written',
    zh: '产物路径 "{input}" 超出了仓库 {root}；未读取或写入任何内容',
  },
  'mcp.path.escapesHint': { en: 'pass a path inside the repository, relative to it (such as specs/<name>)', zh: '请传入仓库内的路径，相对于仓库根目录（例如 specs/<name>）' },
  'mcp.projectRoot.foreign': {
    en: 'project_root "{projectRoot}" is not the repository this server serves ({root}); nothing was read or written',
    zh: 'project_root "{projectRoot}" 不是此服务器所服务的仓库（{root}）；未读取或写入任何内容',
  },
  'mcp.projectRoot.foreignHint': { en: 'leave project_root out, or start another server with --cwd <repo>', zh: '请省略 project_root，或用 --cwd <repo> 另行启动一个服务器' },
  'mcp.specDir.missing': { en: 'No spec_dir. Call loom_attach_spec first or pass spec_dir.', zh: '没有 spec_dir。请先调用 loom_attach_spec，或传入 spec_dir。' },
  'mcp.specDir.missingHint': {
    en: 'spec_dir is the spec directory relative to the repository, such as specs/2026-11-29+login',
    zh: 'spec_dir 是相对于仓库的规格目录，例如 specs/2026-11-29+login',
  },
  'mcp.specDir.notASpec': { en: 'spec_dir "{specDir}" is not a spec directory of {root}', zh: 'spec_dir "{specDir}" 不是 {root} 的规格目录' },
  'mcp.specDir.notASpecHint': { en: 'spec directories are {roots}; loom_get_project_status lists them', zh: '规格目录形如 {roots}；loom_get_project_status 会列出它们' },
  'mcp.file.unreadable': { en: '{file} cannot be read, so it was not overwritten: {problems}', zh: '{file} 无法读取，因此未被覆盖：{problems}' },

  // Stage changes (src/mcp/stageMoves.ts).
  'mcp.howToConfirm': {
    en: 'ask the user whether to move on, showing them what the stage produced; once they have agreed, call loom_approve_gate. They can also confirm it themselves: Loom: Advance in VS Code, or `loom-vscode advance --spec-dir {specDir} --confirm`',
    zh: '请询问用户是否继续，并向其展示该阶段的产出；用户同意后，调用 loom_approve_gate。用户也可以自己确认：在 VS Code 中使用“Loom: 推进”，或运行 `loom-vscode advance --spec-dir {specDir} --confirm`',
  },
  'mcp.compression.required': {
    en: '{specDir}: {stage} requires context compression before advancing; nothing was changed',
    zh: '{specDir}：{stage} 在推进前需要压缩上下文；未做任何更改',
  },
  'mcp.compression.requiredHint': {
    en: "the stage handoff is written: compress the closed stage's raw context with your host's compression, then call {tool} again with compression_confirmed: true",
    zh: '阶段 handoff 已写入：请用宿主的压缩功能压缩已结束阶段的原始上下文，然后带上 compression_confirmed: true 再次调用 {tool}',
  },
  'mcp.advance.specFailed': { en: '{specDir} has failed; nothing was changed', zh: '{specDir} 已失败；未做任何更改' },
  'mcp.advance.specFailedHint': {
    en: 'recover it first: Loom: Recover in VS Code, or `loom-vscode recover --spec-dir {specDir} --to <stage>`',
    zh: '请先恢复它：在 VS Code 中使用“Loom: 恢复”，或运行 `loom-vscode recover --spec-dir {specDir} --to <stage>`',
  },
  'mcp.gate.approveHint': {
    en: 'show the user what the stage produced; once they have agreed, call loom_approve_gate. They can also approve it themselves: Loom: Approve in VS Code, or `loom-vscode approve --spec-dir {specDir}`',
    zh: '请向用户展示该阶段的产出；用户同意后，调用 loom_approve_gate。用户也可以自己批准：在 VS Code 中使用“Loom: 批准”，或运行 `loom-vscode approve --spec-dir {specDir}`',
  },
  'mcp.advance.needsConfirmation': {
    en: "{specDir}: leaving {stage} needs the user's confirmation; nothing was changed",
    zh: '{specDir}：离开 {stage} 需要用户确认；未做任何更改',
  },
  'mcp.advance.notConfirmed': {
    en: '{specDir}: the user did not confirm leaving {stage} ({why}); nothing was changed',
    zh: '{specDir}：用户未确认离开 {stage}（{why}）；未做任何更改',
  },
  'mcp.remedy.advance': { en: 'use loom_advance_pipeline; nothing was changed', zh: '请使用 loom_advance_pipeline；未做任何更改' },
  'mcp.ask.byAgent': { en: 'An agent asks for this step.', zh: '智能体请求执行这一步。' },
  'mcp.approve.noGateHint': {
    en: 'loom_get_pipeline_context says whether the stage is a gate (is_gate, needs_confirmation)',
    zh: 'loom_get_pipeline_context 会说明该阶段是否为关卡（is_gate、needs_confirmation）',
  },
  'mcp.approve.notReady': { en: '{specDir} cannot pass {stage} yet; nothing was changed', zh: '{specDir} 还不能通过 {stage}；未做任何更改' },
  'mcp.approve.notReadyHint': { en: 'produce what `reasons` names, then ask again', zh: '请先产出 `reasons` 列出的内容，然后再次请求' },
  'mcp.approve.notApproved': {
    en: '{specDir}: the user did not approve {stage} ({why}); nothing was changed',
    zh: '{specDir}：用户未批准 {stage}（{why}）；未做任何更改',
  },

  // The question put to the person through MCP elicitation (src/mcp/confirmation.ts and the tools that ask).
  'mcp.ask.leave': { en: 'An agent asks to leave {stage} of {specDir}.', zh: '智能体请求让 {specDir} 离开 {stage} 阶段。' },
  'mcp.ask.leaveUnknown': { en: 'An agent asks to move {specDir} on from an unknown stage.', zh: '智能体请求让 {specDir} 从未知阶段继续推进。' },
  'mcp.ask.approve': { en: 'An agent asks to approve the gate of {stage} of {specDir}.', zh: '智能体请求批准 {specDir} 的 {stage} 关卡。' },
  'mcp.ask.produced': { en: 'It produced: {files}.', zh: '该阶段的产出：{files}。' },
  'mcp.ask.producedNothing': { en: 'It produced: no declared outputs.', zh: '该阶段没有产出声明的输出。' },
  'mcp.ask.next': { en: 'Next: {stage}.', zh: '下一步：{stage}。' },
  'mcp.ask.nextDescribed': { en: 'Next: {stage} ({description}).', zh: '下一步：{stage}（{description}）。' },
  'mcp.ask.nextCompletes': { en: 'Next: the pipeline completes.', zh: '下一步：流水线完成。' },
  'mcp.ask.youConfirm': { en: 'You confirm: {confirmations}.', zh: '你将确认：{confirmations}。' },
  'mcp.ask.moveOn': { en: 'Move on?', zh: '是否继续？' },
  'mcp.ask.field': { en: 'Confirm', zh: '确认' },
  'mcp.ask.fieldDescription': { en: 'Yes: go ahead', zh: '是：继续执行' },
  'mcp.ask.answeredNo': { en: 'the user answered no', zh: '用户回答了“否”' },
  'mcp.ask.declined': { en: 'the user chose decline', zh: '用户选择了拒绝' },
  'mcp.ask.cancelled': { en: 'the user chose cancel', zh: '用户取消了提问' },
  'mcp.ask.failed': { en: 'the question could not be asked: {detail}', zh: '无法向用户提问：{detail}' },

  // Changing the steps ahead (src/mcp/tools/adjustPipeline.ts).
  'mcp.adjust.ask': { en: 'An agent asks to change the steps ahead of {specDir} (at {stage}).', zh: '智能体请求更改 {specDir} 接下来的步骤（当前在 {stage}）。' },
  'mcp.adjust.question': { en: 'Change them?', zh: '是否更改？' },
  'mcp.adjust.declined': {
    en: 'the user did not agree to change the steps of {specDir} ({why}); nothing was changed',
    zh: '用户不同意更改 {specDir} 的步骤（{why}）；未做任何更改',
  },
  'mcp.adjust.skipsPerson': {
    en: 'leaving out {stages} would skip a stage a person must pass; nothing was changed',
    zh: '省略 {stages} 会跳过必须由人通过的阶段；未做任何更改',
  },
  'mcp.adjust.skipsPersonHint': {
    en: 'keep those steps, or let the user decide: in a client that can ask them (MCP elicitation), or by editing .loom/workflow.yaml themselves',
    zh: '请保留这些步骤，或交给用户决定：在能向用户提问的客户端中（MCP elicitation），或由用户自己编辑 .loom/workflow.yaml',
  },

  // Choosing the steps for a request (src/mcp/tools/selectPipeline.ts, pipelineSelection.ts).
  'mcp.select.needsSpecDir': { en: 'spec_dir is required when initialize=true', zh: 'initialize=true 时必须提供 spec_dir' },
  'mcp.select.needsSpecDirHint': {
    en: 'pass the spec directory the steps are for (loom-vscode new --name N makes one)',
    zh: '请传入这些步骤所属的规格目录（可用 loom-vscode new --name N 创建）',
  },
  'mcp.select.stateExists': { en: '{file} exists already, so it was not replaced; nothing was written', zh: '{file} 已存在，因此未被替换；未写入任何内容' },
  'mcp.select.stateExistsHint': { en: 'to change the steps ahead of a started spec, use loom_adjust_pipeline', zh: '要更改已开始的规格接下来的步骤，请使用 loom_adjust_pipeline' },
  'mcp.select.writtenMeanwhile': {
    en: '{file} was written meanwhile, so it was not replaced; nothing was written',
    zh: '{file} 在此期间已被写入，因此未被替换；未写入任何内容',
  },
  'mcp.select.why': { en: 'Why these steps: {risk}; {reasoning}.', zh: '选择这些步骤的原因：{risk}；{reasoning}。' },
  'mcp.select.declined': { en: 'the user did not agree to these steps ({why}); nothing was written', zh: '用户不同意这些步骤（{why}）；未写入任何内容' },
  'mcp.risk.low': { en: 'low risk', zh: '低风险' },
  'mcp.risk.medium': { en: 'medium risk', zh: '中风险' },
  'mcp.risk.high': { en: 'high risk', zh: '高风险' },
  'mcp.select.rule': { en: 'matched the keyword rule {rule}', zh: '匹配了关键词规则 {rule}' },
  'mcp.select.why.low': { en: 'low risk: execute and verify', zh: '低风险：执行并验证' },
  'mcp.select.why.medium': { en: 'medium risk: plan, approve, verify, review and sync', zh: '中风险：规划、审批、验证、评审并同步' },
  'mcp.select.why.high': {
    en: 'high risk: the whole pipeline, on its own branch, with the adversarial review',
    zh: '高风险：完整流水线，在独立分支上进行，并包含对抗式审查',
  },
  'mcp.select.withOptional': { en: '{why}; optional steps from the request: {steps}', zh: '{why}；由请求触发的可选步骤：{steps}' },

  // Handoffs, checkpoints and task states (src/mcp/tools/handoffs.ts, taskState.ts).
  'mcp.handoff.unknownStage': { en: '{stage} is not a stage of the {pipeline} pipeline; nothing was written', zh: '{stage} 不是 {pipeline} 流水线的阶段；未写入任何内容' },
  'mcp.handoff.invalid': { en: 'the handoff is not one loom can read: {detail}; nothing was written', zh: '这个 handoff 无法被 loom 读取：{detail}；未写入任何内容' },
  'mcp.handoff.invalidHint': { en: 'fix the fields named, then call again', zh: '请修正列出的字段，然后再次调用' },
  'mcp.handoff.needsName': { en: 'stage or task_id is required', zh: '必须提供 stage 或 task_id' },
  'mcp.handoff.needsNameHint': {
    en: 'pass the stage id for a stage handoff, or the task id for a task handoff',
    zh: '阶段 handoff 请传入阶段 id，task handoff 请传入 task id',
  },
  'mcp.handoff.bothNames': { en: 'Use only one of stage or task_id', zh: 'stage 和 task_id 只能传入其中一个' },
  'mcp.handoff.advanceHint': {
    en: 'the handoff is written; compress the closed stage’s context now, then call loom_advance_pipeline with compression_confirmed=true',
    zh: 'handoff 已写入；请现在压缩已结束阶段的上下文，然后带上 compression_confirmed=true 调用 loom_advance_pipeline',
  },
  'mcp.checkpoint.wrongStageHint': { en: 'checkpoint the current stage (loom_get_pipeline_context)', zh: '请为当前阶段做 checkpoint（见 loom_get_pipeline_context）' },
  'mcp.task.unknown': { en: '{specDir} has no task {task}; nothing was written', zh: '{specDir} 没有 task {task}；未写入任何内容' },
  'mcp.task.knownHint': { en: 'its tasks are {tasks}', zh: '它的 task 有：{tasks}' },
  'mcp.task.noneHint': { en: 'the spec has no tasks yet: planning writes tasks/TN.md first', zh: '该规格还没有 task：planning 阶段会先写出 tasks/TN.md' },

  // Context documents (src/mcp/tools/context.ts).
  'mcp.context.unknownDoc': { en: 'Unknown context doc: {doc}. One of: {docs}', zh: '未知的上下文文档：{doc}。可选：{docs}' },
  'mcp.context.docMissing': { en: 'Context doc not found: {doc} ({path})', zh: '找不到上下文文档：{doc}（{path}）' },
  'mcp.context.docMissingHint': { en: 'create {path}, or ask for another document', zh: '请创建 {path}，或请求其他文档' },
  'mcp.context.sectionMissing': { en: 'Section "{section}" not found in {doc}', zh: '在 {doc} 中找不到章节 "{section}"' },
  'mcp.context.sectionMissingHint': { en: 'use one of available_sections', zh: '请使用 available_sections 中的章节' },

  // The catalog and telemetry (src/mcp/tools/meta.ts).
  'mcp.meta.pickGroup': {
    en: 'Pick the group that matches the task, load it with loom_load_tool_group, then call only its tools.',
    zh: '选择与任务相符的工具组，用 loom_load_tool_group 加载它，然后只调用该组的工具。',
  },
  'mcp.meta.unknownGroup': { en: 'Unknown group: {group}. Available: {groups}', zh: '未知的工具组：{group}。可用：{groups}' },
  'mcp.meta.unknownGroupHint': { en: 'call loom_list_capabilities for what each group holds', zh: '调用 loom_list_capabilities 查看每个组包含哪些工具' },
  'mcp.meta.telemetryOff': { en: 'Telemetry is off for this server', zh: '此服务器未开启遥测' },
  'mcp.meta.telemetryOffHint': { en: 'start the server with LOOM_TELEMETRY=1 in its environment', zh: '请在环境变量中设置 LOOM_TELEMETRY=1 后再启动服务器' },

  // The repository's status (src/mcp/tools/pipelineStatus.ts).
  'mcp.status.missingFile': { en: 'Missing {file}', zh: '缺少 {file}' },
  'mcp.status.placeholders': {
    en: 'constitution.md has {count, plural, one {# unrendered placeholder} other {# unrendered placeholders}}',
    zh: 'constitution.md 有 {count} 个未渲染的占位符',
  },
  'mcp.status.unreadableFile': {
    en: '{message} (line {line}); fix or restore it',
    zh: '{message}（第 {line} 行）；请修复或恢复它',
  },
  'mcp.status.stageUnknown': {
    en: '{specDir}: its stage is unknown until {file} can be read; nothing is changed on it',
    zh: '{specDir}：在 {file} 可读之前其阶段未知；不会对它做任何改动',
  },
  'mcp.status.readMore': { en: 'Pass a larger limit, or detail "full" only when needed.', zh: '请传入更大的 limit；只在需要时使用 detail "full"。' },

  // Views and validators (src/mcp/tools/views.ts, validatorChecks.ts).
  'mcp.view.tasksUnreadable': { en: 'the task batches of {specDir} cannot be built: {files} cannot be read', zh: '无法构建 {specDir} 的任务批次：{files} 无法读取' },
  'mcp.view.unreadableHint': { en: 'fix the files named (loom_validate shows where), then call again', zh: '请修复列出的文件（loom_validate 会指出位置），然后再次调用' },
  'mcp.converge.wrongRound': {
    en: 'round {round} is not the next convergence round of {specDir}: that is round {next}; nothing was written',
    zh: '第 {round} 轮不是 {specDir} 的下一个收敛轮次：下一轮是第 {next} 轮；未写入任何内容',
  },
  'mcp.converge.wrongRoundHint': { en: 'call again with round {next}, or without round', zh: '请用 round {next} 再次调用，或不传 round' },

  // Every call (src/mcp/server.ts, results.ts).
  'mcp.arguments.invalid': { en: 'invalid arguments for {tool}: {detail}', zh: '{tool} 的参数无效：{detail}' },
  'mcp.arguments.invalidHint': { en: 'call again with the arguments its input schema names', zh: '请按其输入 schema 列出的参数再次调用' },
  'mcp.error.transitionHint': {
    en: 'fix what `reasons` names, then call again; loom_get_pipeline_context shows what the stage needs',
    zh: '请修复 `reasons` 列出的问题，然后再次调用；loom_get_pipeline_context 会显示该阶段需要什么',
  },
  'mcp.error.lockedHint': {
    en: 'another process drives this spec (a task run, loom run, another agent): wait for it to finish, then call again',
    zh: '另一个进程正在驱动此规格（task 运行、loom run 或另一个智能体）：请等它结束后再次调用',
  },
  'mcp.error.corruptHint': { en: 'fix or restore the file by hand (it was left untouched), then call again', zh: '请手动修复或恢复该文件（它未被改动），然后再次调用' },
  'mcp.error.toolFailed': { en: 'the tool failed: {detail}', zh: '工具执行失败：{detail}' },
  'mcp.error.toolFailedHint': { en: 'nothing more was changed; the server keeps answering', zh: '没有做进一步的更改；服务器会继续响应' },
} as const satisfies MessageTable;
