import type { MessageTable } from './catalogTypes';

/** What `loom-vscode` prints: results, usage errors and the failures it reports (src/cli). */
export const cliMessages = {
  'cli.usage': {
    en: `loom-vscode {version} — loom's pipeline, headless

Usage: loom-vscode <command> [--cwd <repo>] [--json] [--lang en|zh]

Commands:
  new      --name N [--spec-root R] [--type T]
                                          start a feature: specs/<YYYY-MM-DD>+<name>/ at the first stage
  status   [--spec-dir D] [--detail summary|full]
                                          where every spec stands and what blocks its next step,
                                          reading only the files that answer needs (each move is
                                          checked as loom's advance checks it, up to what blocks it
                                          first); a file it needs that cannot be read is named and
                                          the move is not ready. Every file's problems are validate's;
                                          --detail full adds them, with every check of every move
  advance  --spec-dir D [--to S] [--confirm] [--compression-confirmed] [--reason R]
                                          move to the next stage when its preconditions hold;
                                          --compression-confirmed says you compressed the closed
                                          stage's context, which loom 3 asks for where the step's
                                          outputs include handoffs/<stage>.json
                                          (never past a human-approval gate: that is approve's)
  approve  --spec-dir D [--compression-confirmed] [--reason R]
                                          pass the gate of the current stage (loom's run --approve):
                                          a human-approval gate records the approved files' sha256
  fail     --spec-dir D --reason R        mark the spec failed, recording the reason
  recover  --spec-dir D --to S [--reason R]  leave failed for a stage the pipeline allows
  reapprove --spec-dir D [--stage S] [--reason R]
                                          approve a gate already passed again after its approved
                                          files changed (loom's stale approval); the stage stays
  task     --spec-dir D --id T --status S [--blocker B]
                                          set a task's state (loom's run --task --task-status):
                                          pending, executing, reviewing, done, failed, blocked
  verdict  --spec-dir D [--file F]        the verdict of a report (default qa-report.md), as loom's
                                          run --verdict: PASS exits 0, PARTIAL 2, FAIL or none 1
  handoff  --spec-dir D (--stage S | --task T) [--status S] [--summary T] [--artifacts a,b] [--refresh]
                                          write handoffs/<S or T>.json with loom's fingerprints (loom's
                                          handoff write); --refresh keeps what it says, fingerprints anew
  tasks    --spec-dir D [--validate]      parallel batches, owns conflicts, cycles
  trace    --spec-dir D                   the traceability matrix
  validate [--spec-dir D]                 every diagnostic of loom's files
  analyze  --spec-dir D [--override ID --reason R]
                                          cross-check the planning artifacts, write artifact-analysis.json;
                                          --override records that you accept error finding ID, with the
                                          reason; it still blocks (loom re-runs the analysis and reads
                                          no override), shown as overridden
  converge --spec-dir D                   classify every behavior, write convergence-report.json and
                                          append tasks for the gaps (at most 3 rounds)
  verify   --spec-dir D [--run]           the verification-artifacts check: reports, coverage, closure;
                                          --run verifies as loom's skill does: build and type checks and
                                          the tests re-run in the feature worktree, logs under evidence/,
                                          verify-report.md and, on PASS, handoffs/verification.json
  worktree --spec-dir D [--location L]    the git-worktree stage: branch feature/<date>-<name> and its
                                          worktree (made or reused), recorded in pipeline.state.json
  sync     --spec-dir D [--remote R]      the synced stage: the feature's decisions and pitfalls into
                                          .loom/memory/store.json, and the commands that push the branch
                                          and open its pull request
  drift    [--spec-dir D]                 whether each synced spec is still true to its code: files its
                                          tasks own, its tests and evidence changed since its baseline
                                          commit (one git log pass); exit 1 when one drifted, 2 when a
                                          baseline is not in the history (shallow clone); GITHUB_ACTIONS
                                          gets ::warning annotations
  mcp                                     loom's MCP tools over stdio for an agent (Claude Code, Codex,
                                          Cursor, Copilot); LOOM_LAZY_TOOLS=0 lists every tool at once
  stop-hook                               the plugin's Stop hook: reads the hook's JSON on stdin and keeps
                                          the agent working while a task Loom records is not done

--spec-dir is relative to the repository (specs/<name> or qa/<name>) or absolute.
--lang chooses the language of the output (default: LC_ALL, LC_MESSAGES or LANG); --json keeps its
  English keys and codes in either language.
Exit codes: 0 success, 1 a check failed, 2 bad usage or unreadable input.
  analyze fails on a blocker or an error (overridden or not), converge when another round is needed,
  verify when a check fails, worktree when git refuses (no commit, uncommitted changes ...).`,
    zh: `loom-vscode {version} — 无界面运行 loom 的流水线

用法：loom-vscode <命令> [--cwd <仓库>] [--json] [--lang en|zh]

命令：
  new      --name N [--spec-root R] [--type T]
                                          开始一个功能：在第一个阶段创建 specs/<YYYY-MM-DD>+<name>/
  status   [--spec-dir D] [--detail summary|full]
                                          每个规格所处的阶段，以及阻止其下一步的原因；只读取回答所需的
                                          文件（每个去向按 loom 的 advance 的检查顺序，查到第一个阻止它的
                                          原因为止）；所需文件无法读取时会点名，该去向不会是就绪。每个文件
                                          的问题由 validate 报告；--detail full 会附上它们，并做每个去向的全部检查
  advance  --spec-dir D [--to S] [--confirm] [--compression-confirmed] [--reason R]
                                          前置条件满足时进入下一阶段；--compression-confirmed
                                          表示你已压缩已结束阶段的上下文，loom 3 在步骤的 outputs
                                          含 handoffs/<stage>.json 时要求这一点（从不越过人工批准关卡：那是 approve 的事）
  approve  --spec-dir D [--compression-confirmed] [--reason R]
                                          通过当前阶段的关卡（loom 的 run --approve）：人工批准关卡
                                          会记录所批准文件的 sha256
  fail     --spec-dir D --reason R        将规格标记为失败，并记录原因
  recover  --spec-dir D --to S [--reason R]  从失败状态恢复到流水线允许的阶段
  reapprove --spec-dir D [--stage S] [--reason R]
                                          已审批文件变更后（loom 的审批过期），重新审批已通过的门禁；
                                          阶段保持不变
  task     --spec-dir D --id T --status S [--blocker B]
                                          设置 task 的状态（loom 的 run --task --task-status）：
                                          pending、executing、reviewing、done、failed、blocked
  verdict  --spec-dir D [--file F]        报告的结论（默认 qa-report.md），同 loom 的 run --verdict：
                                          PASS 退出码 0，PARTIAL 为 2，FAIL 或没有结论为 1
  handoff  --spec-dir D (--stage S | --task T) [--status S] [--summary T] [--artifacts a,b] [--refresh]
                                          写入带 loom 指纹的 handoffs/<S 或 T>.json（loom 的
                                          handoff write）；--refresh 保留其内容，重新计算指纹
  tasks    --spec-dir D [--validate]      并行批次、owns 冲突、依赖环
  trace    --spec-dir D                   追溯矩阵
  validate [--spec-dir D]                 loom 文件的全部诊断
  analyze  --spec-dir D [--override ID --reason R]
                                          交叉检查计划产物，写入 artifact-analysis.json；
                                          --override 记录你接受错误级发现 ID 及其原因；它仍会阻断
                                          （loom 会重新运行分析且不读取豁免），显示为已豁免
  converge --spec-dir D                   为每个 behavior 分类，写入 convergence-report.json，
                                          并为缺口追加 task（最多 3 轮）
  verify   --spec-dir D [--run]           verification-artifacts 检查：报告、覆盖率、闭环；
                                          --run 按 loom 的验证技能执行：在功能工作树中运行构建与类型检查
                                          并复跑测试，日志存入 evidence/，写 verify-report.md，
                                          通过时写 handoffs/verification.json
  worktree --spec-dir D [--location L]    git-worktree 阶段：分支 feature/<date>-<name> 及其
                                          worktree（新建或复用），记录在 pipeline.state.json 中
  sync     --spec-dir D [--remote R]      synced 阶段：把本功能的决策与踩坑写入 .loom/memory/store.json，
                                          并给出推送分支、创建拉取请求的命令
  drift    [--spec-dir D]                 每个 synced 规格是否仍与代码一致：其任务负责的文件、测试与
                                          证据在基线提交之后是否变更（一次 git log）；有漂移时退出码 1，
                                          历史中没有基线（浅克隆）时为 2；GITHUB_ACTIONS 下输出 ::warning 注释
  mcp                                     通过 stdio 为智能体（Claude Code、Codex、Cursor、Copilot）
                                          提供 loom 的 MCP 工具；LOOM_LAZY_TOOLS=0 一次列出全部工具
  stop-hook                               插件的 Stop hook：从 stdin 读取 hook 的 JSON，在 Loom 记录的
                                          task 未完成时让智能体继续工作

--spec-dir 相对于仓库（specs/<name> 或 qa/<name>），或为绝对路径。
--lang 选择输出语言（默认取 LC_ALL、LC_MESSAGES 或 LANG）；--json 在两种语言下都保留英文的键和代码。
退出码：0 成功，1 检查未通过，2 用法错误或输入无法读取。
  analyze 遇到 blocker 或错误（无论是否豁免）时失败，converge 需要再一轮时失败，
  verify 检查未通过时失败，worktree 在 git 拒绝时失败（没有提交、有未提交的更改……）。`,
  },
  'cli.hint': { en: 'Run "loom-vscode --help" for usage.', zh: '运行 "loom-vscode --help" 查看用法。' },
  'cli.usage.badLanguage': { en: '--lang must be one of {languages}, not {value}', zh: '--lang 只能是 {languages} 之一，不能是 {value}' },
  'cli.usage.unknownCommand': { en: 'unknown command {command}', zh: '未知命令 {command}' },
  'cli.usage.needsValue': { en: '{flag} needs a value', zh: '{flag} 需要一个值' },
  'cli.usage.takesNoValue': { en: '{flag} takes no value', zh: '{flag} 不接受值' },
  'cli.usage.unknownOption': { en: 'unknown option {flag}', zh: '未知选项 {flag}' },
  'cli.usage.unexpectedArgument': { en: 'unexpected argument {arg}', zh: '多余的参数 {arg}' },
  'cli.usage.flagNotTaken': { en: '{command} does not take {flag}', zh: '{command} 不接受 {flag}' },
  'cli.usage.needsFlag': { en: '{command} needs {flag}', zh: '{command} 需要 {flag}' },
  'cli.usage.badDetail': { en: '--detail must be summary or full, not {value}', zh: '--detail 只能是 summary 或 full，不能是 {value}' },
  'cli.usage.cwdMissing': { en: '--cwd {path} does not exist', zh: '--cwd {path} 不存在' },
  'cli.usage.cwdNotDirectory': { en: '--cwd {path} is not a directory', zh: '--cwd {path} 不是目录' },
  'cli.usage.notSpecDir': {
    en: '--spec-dir {dir} is not a spec directory of {root} (expected specs/<name> or qa/<name>, a spec folder or feature name)',
    zh: '--spec-dir {dir} 不是 {root} 中的规格目录（应为 specs/<name> 或 qa/<name>、规格目录名或功能名）',
  },
  'cli.usage.notSpecDirDidYouMean': {
    en: '--spec-dir {dir} is not a spec directory of {root}; did you mean {suggestions}?',
    zh: '--spec-dir {dir} 不是 {root} 中的规格目录；你是指 {suggestions} 吗？',
  },
  'cli.usage.specDirAmbiguous': {
    en: '--spec-dir {dir} names more than one spec: {specDirs}; give its folder',
    zh: '--spec-dir {dir} 对应多个规格：{specDirs}；请给出其目录',
  },
  'cli.usage.specRoot': { en: '--spec-root must be one of {roots}', zh: '--spec-root 只能是 {roots} 之一' },
  'cli.usage.failNeedsReason': { en: 'fail needs a --reason that says what went wrong', zh: 'fail 需要用 --reason 说明出了什么问题' },
  'cli.usage.reasonOnlyWithOverride': { en: 'analyze takes --reason only with --override', zh: 'analyze 只在与 --override 一起使用时接受 --reason' },
  'cli.usage.overrideNeedsReason': { en: '--override needs a --reason that says why you accept the finding', zh: '--override 需要用 --reason 说明你为何接受该发现' },

  'cli.input.tasksUnreadable': {
    en: "the tasks of {specDir} cannot be planned: a task file's owns, reads or depends_on cannot be read",
    zh: '无法为 {specDir} 的任务分批：某个任务文件的 owns、reads 或 depends_on 无法读取',
  },
  'cli.input.stageUnknown': { en: '{file} is corrupt, so the stage of {specDir} is unknown', zh: '{file} 已损坏，无法确定 {specDir} 的阶段' },

  'cli.new.started': { en: '{specDir}: started at {stage} ({pipeline})', zh: '{specDir}：从 {stage} 开始（{pipeline}）' },
  'cli.status.noSpecs': { en: 'No spec directories under {root} ({roots}).', zh: '{root} 下（{roots}）没有规格目录。' },
  'cli.moved': { en: '{specDir}: {from} → {to}', zh: '{specDir}：{from} → {to}' },
  'cli.failed': { en: '{specDir}: {from} → failed ({reason})', zh: '{specDir}：{from} → failed（{reason}）' },
  'cli.reapproved': {
    en: '{specDir}: {stage} approved again ({changed} had changed); still at {current}',
    zh: '{specDir}：已重新审批 {stage}（{changed} 曾有变更）；仍在 {current}',
  },
  'cli.tasks.valid': {
    en: '{specDir}: {count, plural, one {{count} task} other {{count} tasks}} valid: each owns its paths, no conflicts, no unknown dependencies, no cycle',
    zh: '{specDir}：{count} 个任务有效：各自拥有自己的路径，无冲突，无未知依赖，无依赖环',
  },
  'cli.validate.clean': { en: 'No problems found.', zh: '未发现问题。' },
  'cli.analyze.summary': {
    en: '{specDir}: artifact analysis {status} ({blockers} blocking)',
    zh: '{specDir}：产物分析 {status}（{blockers} 个阻断项）',
  },
  'cli.converge.summary': {
    en: '{specDir}: convergence round {round} {status} ({coverage} covered, {blockers} blocking)',
    zh: '{specDir}：收敛第 {round} 轮 {status}（覆盖 {coverage}，{blockers} 个阻断项）',
  },
  'cli.converge.appended': { en: '  appended {task} (tasks/{task}.md) for {behaviors}', zh: '  为 {behaviors} 追加了 {task}（tasks/{task}.md）' },
  'cli.converge.escalate': {
    en: '  round {round} was the last: escalate (fail the spec, or close the gaps by hand)',
    zh: '  第 {round} 轮已是最后一轮：请升级处理（将规格标记为失败，或手动补齐缺口）',
  },
  'cli.verify.passed': { en: '{specDir}: {validator} passed', zh: '{specDir}：{validator} 通过' },
  'cli.verify.failed': { en: '{specDir}: {validator} failed', zh: '{specDir}：{validator} 未通过' },
  'cli.verifyRun.passed': { en: '{specDir}: verification PASS (ran in {where}); wrote {files}', zh: '{specDir}：验证通过（在 {where} 中运行）；已写入 {files}' },
  'cli.verifyRun.failed': { en: '{specDir}: verification FAIL (ran in {where}); wrote {files} with fix instructions', zh: '{specDir}：验证未通过（在 {where} 中运行）；已写入带修复指令的 {files}' },
  'cli.verifyRun.fixes': { en: 'Fix instructions ({count}):', zh: '修复指令（{count} 项）：' },
  'cli.worktree.created': { en: '{specDir}: created {branch} at {path}', zh: '{specDir}：已在 {path} 创建 {branch}' },
  'cli.worktree.reused': { en: '{specDir}: reusing {branch} at {path}', zh: '{specDir}：复用 {path} 处的 {branch}' },
  'cli.failure': { en: 'the command failed: {detail}', zh: '命令失败：{detail}' },

  'cli.status.line': { en: '{specDir}  [{pipeline}]  stage: {stage}', zh: '{specDir}  [{pipeline}]  阶段：{stage}' },
  'cli.status.lineInferred': { en: '{specDir}  [{pipeline}]  stage: {stage} (inferred from the artifacts)', zh: '{specDir}  [{pipeline}]  阶段：{stage}（由产物推断）' },
  'cli.status.lineWorkflowUnreadable': {
    en: '{specDir}  [{pipeline}]  stage: unknown (.loom/workflow.yaml does not give this pipeline)',
    zh: '{specDir}  [{pipeline}]  阶段：未知（.loom/workflow.yaml 未给出该流水线）',
  },
  'cli.status.lineUnknown': { en: '{specDir}  [{pipeline}]  stage: unknown (pipeline.state.json is corrupt)', zh: '{specDir}  [{pipeline}]  阶段：未知（pipeline.state.json 已损坏）' },
  'cli.status.tasks': { en: '  tasks: {done}/{total} done', zh: '  任务：已完成 {done}/{total}' },
  'cli.status.activeTask': { en: '{task} {status}', zh: '{task} {status}' },
  'cli.status.activeTaskRetried': { en: '{task} {status} (retry {retries})', zh: '{task} {status}（第 {retries} 次重试）' },
  'cli.status.next.ready': { en: '  → {to} ({kind}): ready', zh: '  → {to}（{kind}）：就绪' },
  'cli.status.next.readyApprove': {
    en: '  → {to} ({kind}): ready for your approval (a human-approval gate): loom-vscode approve --spec-dir {specDir}',
    zh: '  → {to}（{kind}）：等待你的批准（人工批准关卡）：loom-vscode approve --spec-dir {specDir}',
  },
  'cli.status.next.readyNeeds': { en: '  → {to} ({kind}): ready, needs {flags}', zh: '  → {to}（{kind}）：就绪，需要 {flags}' },
  'cli.status.next.readyRecover': { en: '  → {to} ({kind}): ready, via recover --to {to}', zh: '  → {to}（{kind}）：就绪，使用 recover --to {to}' },
  'cli.status.next.blocked': { en: '  → {to} ({kind}): blocked', zh: '  → {to}（{kind}）：受阻' },

  'cli.tasks.batch': { en: 'Batch {index} ({type}): {tasks}', zh: '批次 {index}（{type, select, parallel {并行} serial {串行} other {{type}}}）：{tasks}' },
  // A batch of one task is neither parallel nor serial: it is just the next task.
  'cli.tasks.batchOfOne': { en: 'Batch {index}: {task}', zh: '批次 {index}：{task}' },
  'cli.tasks.none': { en: 'No tasks.', zh: '没有任务。' },
  'cli.tasks.cycle': { en: 'Dependency cycle: {tasks}', zh: '依赖环：{tasks}' },
  'cli.tasks.unknownDependency': { en: '{task} depends on unknown task {dependency}', zh: '{task} 依赖未知任务 {dependency}' },
  'cli.tasks.conflict': { en: 'Conflict: {a} and {b} both touch {paths}', zh: '冲突：{a} 和 {b} 都修改 {paths}' },

  'cli.trace.row': { en: '{mark} {behavior} [{category}] tasks: {tasks}; tests: {tests}; evidence: {evidence}', zh: '{mark} {behavior} [{category}] 任务：{tasks}；测试：{tests}；证据：{evidence}' },
  'cli.trace.onlyInWorktree': {
    en: '{behavior}: {ref} is only in the feature worktree, where loom does not look (name it {through})',
    zh: '{behavior}：{ref} 仅在功能 worktree 中，loom 不会在那里查找（请写成 {through}）',
  },
  'cli.trace.lacks': { en: '{requirement} lacks behaviors for: {categories}', zh: '{requirement} 缺少以下类别的 behavior：{categories}' },
  'cli.trace.none': { en: 'none', zh: '无' },
  'cli.trace.summary': { en: '{closed}/{total} behaviors closed', zh: '已闭环 behavior {closed}/{total}' },

  'cli.findings.none': { en: 'No findings.', zh: '没有发现。' },
  'cli.findings.overridden': { en: '(overridden: {reason})', zh: '（已豁免：{reason}）' },
  'cli.findings.overriddenBy': { en: '(overridden by {by}: {reason})', zh: '（由 {by} 豁免：{reason}）' },
  'cli.analyze.overridesStillBlock': {
    en: "{count, plural, one {# overridden finding still blocks} other {# overridden findings still block}}: loom's run --advance re-runs analyze-artifacts and does not read overrides, so fix the artifacts",
    zh: '{count} 个已豁免的发现仍会阻断：loom 的 run --advance 会重新运行 analyze-artifacts 且不读取豁免，因此请修复产物',
  },
  'cli.status.compressionNote': {
    en: '--compression-confirmed is your word that the stage is closed: its work is done and its handoff says so. loom 3 asks for it before it leaves a stage that writes a handoff (an agent compresses the stage’s context first).',
    zh: '--compression-confirmed 表示你确认该阶段已结束：工作已完成，交接文件已写明。loom 3 在离开会写交接文件的阶段前要求这一确认（智能体需先压缩该阶段的上下文）。',
  },
  'cli.findings.fix': { en: 'fix: {details}', zh: '修复：{details}' },
} as const satisfies MessageTable;
