import type { MessageTable } from './catalogTypes';

/**
 * The checks: .loom/workflow.yaml as loom reads it, which preconditions apply to a step, the
 * validators, `tasks --validate` and Check Stage's handoff. Keys start with the file or check they are about.
 */
export const checksMessages = {
  // .loom/workflow.yaml, read the way loom's loadWorkflow reads it.
  'workflow.yamlSyntax': { en: '{file} is not valid YAML: {detail}', zh: '{file} 不是有效的 YAML：{detail}' },
  'workflow.cannotRead': { en: '{file} could not be read: {detail}', zh: '无法读取 {file}：{detail}' },
  'workflow.notMapping': {
    en: '{file} is not a mapping; loom cannot read a workflow from it (check the 2-space indentation)',
    zh: '{file} 不是映射，loom 无法从中读取流水线（请检查两空格缩进）',
  },
  'workflow.empty': {
    en: '{file}: the file is empty (or only comments), and loom run refuses it ("Failed to parse workflow"); give it its pipelines (pipelines: <name>: steps: - id: …)',
    zh: '{file}：文件为空（或只有注释），loom run 会拒绝它（"Failed to parse workflow"）；请写入 pipelines（pipelines: <name>: steps: - id: …）',
  },
  'workflow.noPipelines': {
    en: '{file}: no pipelines are declared, and loom run refuses that ("Failed to parse any pipelines"); add them (pipelines: <name>: steps: - id: …)',
    zh: '{file}：没有声明任何流水线，loom run 会拒绝它（"Failed to parse any pipelines"）；请添加（pipelines: <name>: steps: - id: …）',
  },
  'workflow.pipelinesNotMapping': { en: '{file}: "pipelines" must map each pipeline name to its steps', zh: '{file}："pipelines" 必须把每个流水线名称映射到它的步骤' },
  'workflow.pipelineNotList': {
    en: '{file}: pipeline "{pipeline}" is not a list of steps (loom would read it as a pipeline with no steps)',
    zh: '{file}：流水线 "{pipeline}" 不是步骤列表（loom 会把它当作没有步骤的流水线）',
  },
  'workflow.stepWithoutId': { en: '{file}: pipeline "{pipeline}" has a step missing "id"', zh: '{file}：流水线 "{pipeline}" 有一个步骤缺少 "id"' },
  'workflow.notList': {
    en: '{file}: "{key}" of step "{step}" must be a list such as [a, b] (loom would read the text letter by letter)',
    zh: '{file}：步骤 "{step}" 的 "{key}" 必须是列表，例如 [a, b]（loom 会把这段文字逐个字符读取）',
  },
  'workflow.notPath': { en: '{file}: "{key}" of step "{step}" must name files, not {kind}', zh: '{file}：步骤 "{step}" 的 "{key}" 必须是文件名，而不是 {kind}' },
  'workflow.notFileName': { en: '{file}: "gate_verdict" of step "{step}" must name a report file', zh: '{file}：步骤 "{step}" 的 "gate_verdict" 必须是报告文件名' },
  'workflow.evidenceNotBoolean': {
    en: '{file}: "evidence_required" of step "{step}" is {value}; loom requires evidence only for true, so it is read as false',
    zh: '{file}：步骤 "{step}" 的 "evidence_required" 为 {value}；loom 只在值为 true 时要求证据，因此按 false 读取',
  },
  'workflow.notCount': {
    en: '{file}: "{key}" is {value}, which is not a count the extension can use; it uses {fallback} (loom does not read it)',
    zh: '{file}："{key}" 为 {value}，不是扩展可用的计数；扩展使用 {fallback}（loom 不读取该值）',
  },
  'workflow.nextIgnored': {
    en: '{file}: step "{step}" says next: {next}, but loom goes through the steps in their list order, so "{step}" is followed by {actual}',
    zh: '{file}：步骤 "{step}" 写了 next: {next}，但 loom 按列表顺序执行步骤，因此 "{step}" 之后是 {actual}',
  },
  'workflow.nextIgnoredLast': {
    en: '{file}: step "{step}" says next: {next}, but loom goes through the steps in their list order, and "{step}" is the last one',
    zh: '{file}：步骤 "{step}" 写了 next: {next}，但 loom 按列表顺序执行步骤，而 "{step}" 是最后一步',
  },
  'workflow.unreadable': {
    en: '{file} cannot be read (line {line}: {detail}), so the {pipeline} pipeline is unknown; fix it before moving the spec (loom run refuses it too)',
    zh: '{file} 无法读取（第 {line} 行：{detail}），因此 {pipeline} 流水线未知；请先修复它再推进规格（loom run 同样会拒绝）',
  },
  'workflow.specUnreadable': { en: '{file} cannot be read, so the stage of {spec} is unknown', zh: '{file} 无法读取，因此 {spec} 的阶段未知' },
  'workflow.typeMissing': {
    en: '{file} has no "{pipeline}" pipeline (it has {pipelines}), so the stages of a spec of that type are unknown: loom run --advance would find no steps and mark the spec complete at its current stage without any check. Add a "{pipeline}" pipeline to {file}, or set pipeline_type to one it has',
    zh: '{file} 中没有 "{pipeline}" 流水线（只有 {pipelines}），因此该类型规格的阶段未知：loom run --advance 会找不到任何步骤，并在当前阶段不做任何检查就把规格标记为完成。请在 {file} 中添加 "{pipeline}" 流水线，或把 pipeline_type 改为已有的流水线',
  },
  'workflow.typeEmpty': {
    en: '{file}: the "{pipeline}" pipeline has no steps, so the stages of a spec of that type are unknown: loom run --advance would mark the spec complete at its current stage without any check. Give the pipeline its steps in {file}',
    zh: '{file}："{pipeline}" 流水线没有步骤，因此该类型规格的阶段未知：loom run --advance 会在当前阶段不做任何检查就把规格标记为完成。请在 {file} 中为该流水线写入步骤',
  },

  // Task ownership, as loom's `tasks --validate` (detectConflicts) judges it.
  'tasks.withoutOwns': { en: '{task} owns no paths: every task must declare the files it may change in "owns"', zh: '{task} 没有声明 owns：每个任务都必须在 "owns" 中声明它可以修改的文件' },
  'tasks.conflict': { en: '{task} and {other} overlap on {paths}: they cannot run in parallel', zh: '{task} 与 {other} 在 {paths} 上重叠：它们不能并行执行' },
  'tasks.orderedOverlap': {
    en: '{task} and {other} overlap on {paths}: depends_on makes them run one after the other, but loom tasks --validate rejects every overlapping pair',
    zh: '{task} 与 {other} 在 {paths} 上重叠：depends_on 使它们先后执行，但 loom tasks --validate 会拒绝所有重叠的任务对',
  },

  // Advice: the extension's checks beyond loom's engine for the step; shown, never refusing.
  'advice.checkByHand': { en: 'check by hand: {check}', zh: '请人工确认：{check}' },
  'advice.diagnostic': {
    en: 'before {to}: {reason} (advice: loom run --advance does not check this for {stage}; "strict_checks: true" on the step in .loom/workflow.yaml makes it block)',
    zh: '进入 {to} 之前：{reason}（建议：loom run --advance 不会为 {stage} 检查此项；在 .loom/workflow.yaml 的该步骤上写 "strict_checks: true" 可使其成为阻断）',
  },

  // Loom: Check Stage's handoff (written for loom, in English like the findings files).
  'stageCheck.handoffSummary': { en: '{reports} passed Loom: Check Stage', zh: '{reports} 已通过 Loom: Check Stage' },
} as const satisfies MessageTable;
