import type { MessageTable } from './catalogTypes';

/** What the extension's host shows in src/host/findings, in English and Chinese. */
export const hostFindingsMessages = {
  'host.findings.addS': { en: "Add {value} to {task}'s {key}", zh: '将 {value} 加入 {task} 的 {key}' },
  'host.findings.removeFromS': { en: "Remove {value} from {task}'s {key}", zh: '从 {task} 的 {key} 中移除 {value}' },
  'host.findings.addTraceabilityJson': { en: 'Add {requirement} to traceability.json', zh: '将 {requirement} 加入 traceability.json' },
  'host.findings.addTasksTraceabilityJson': { en: 'Add {tasks} to the tasks of {behavior} in traceability.json', zh: '在 traceability.json 中将 {tasks} 加入 {behavior} 的 tasks' },
  'host.findings.removeFromTasksTraceabilityJson': { en: 'Remove {tasks} from the tasks of {behavior} in traceability.json', zh: '从 traceability.json 中 {behavior} 的 tasks 移除 {tasks}' },
  'host.findings.overrideFinding': { en: 'Override this finding…', zh: '豁免此发现项…' },
  'host.findings.showProblems': { en: 'Show Problems', zh: '显示问题' },
  'host.findings.workflowDeclaresNoValidatorsNothing': {
    en: '{feature}: the workflow declares no validators for {stage}; nothing to check.',
    zh: '{feature}：工作流没有为 {stage} 声明校验器，无需检查。',
  },
  'host.findings.checksPass': { en: '{feature}: the checks of {stage} pass ({names}).', zh: '{feature}：{stage} 的检查通过（{names}）。' },
  'host.findings.oneBlockingFindingAt': { en: '{feature}: one blocking finding at {stage}.', zh: '{feature}：{stage} 有 1 个阻断发现项。' },
  'host.findings.blockingFindingsAt': { en: '{feature}: {blocking} blocking findings at {stage}.', zh: '{feature}：{stage} 有 {blocking} 个阻断发现项。' },
  'host.findings.tasksAppendedNextRound': { en: 'Tasks appended for the next round: {appended}.', zh: '已为下一轮追加任务：{appended}。' },
  'host.findings.wasLastConvergenceRoundFail': { en: 'That was the last convergence round: fail the spec, or close the gaps by hand.', zh: '这是最后一轮收敛：将规格标记为失败，或手动补齐缺口。' },
  'host.findings.hasNoFindingAnyMore': {
    en: '{feature}: {ARTIFACT_ANALYSIS_PASS} has no finding {findingId} any more; the findings changed. Run Loom: Check Stage and try again.',
    zh: '{feature}：{ARTIFACT_ANALYSIS_PASS} 已没有发现项 {findingId}，发现项已变化。请运行 Loom: 检查阶段 后重试。',
  },
  'host.findings.blockerFixBlockersCannotOverridden': { en: '{id} is a blocker: fix it; blockers cannot be overridden.', zh: '{id} 是阻断项：请修复它，阻断项不能豁免。' },
  'host.findings.doesNotBlockThereNothing': { en: '{id} is a {severity} and does not block: there is nothing to override.', zh: '{id} 是 {severity}，不会阻断：无需豁免。' },
  'host.findings.hasNoErrorFindingOverride': { en: '{feature} has no error finding to override (blockers cannot be overridden).', zh: '{feature} 没有可豁免的错误发现项（阻断项不能豁免）。' },
  'host.findings.loomOverrideFinding': { en: 'Loom: Override Finding', zh: 'Loom: 豁免发现项' },
  'host.findings.whichErrorFindingDoYou': { en: 'Which error finding of {feature} do you accept?', zh: '你接受 {feature} 的哪个错误发现项？' },
  'host.findings.override': { en: 'Override {id}', zh: '豁免 {id}' },
  'host.findings.whyDoYouAccept': { en: 'Why do you accept "{message}"?', zh: '为什么接受“{message}”？' },
  'host.findings.reasonRecordedOverrideArtifactAnalysis': {
    en: 'The reason is recorded with the override in artifact-analysis.overrides.json',
    zh: '理由会随豁免记录在 artifact-analysis.overrides.json 中',
  },
  'host.findings.reasonRequiredRecordedOverride': { en: 'A reason is required: it is recorded with the override.', zh: '必须填写理由：它会随豁免一起记录。' },
  'host.findings.overridingNeedsReasonNothingWas': { en: 'Overriding {id} needs a reason; nothing was recorded.', zh: '豁免 {id} 需要理由；未记录任何内容。' },
  'host.findings.overriddenReasonRecordedArtifactAnalysis': {
    en: "{feature}: {id} overridden; the reason is recorded in artifact-analysis.overrides.json. It still blocks: loom's run --advance re-runs the analysis and reads no override, so fix the artifact.",
    zh: '{feature}：已豁免 {id}，理由已记录在 artifact-analysis.overrides.json 中。它仍会阻断：loom 的 run --advance 会重新运行分析且不读取豁免，因此请修复产物。',
  },
  'host.findings.whichSpecShouldChecked': { en: 'Which spec should be checked?', zh: '检查哪个规格？' },
  'host.findings.whichSpecHasFinding': { en: 'Which spec has the finding?', zh: '哪个规格有该发现项？' },
} as const satisfies MessageTable;
