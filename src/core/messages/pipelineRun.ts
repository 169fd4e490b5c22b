import type { MessageTable } from './catalogTypes';

/** Loom: Run Pipeline: what a run says at each stage, and why it stopped. */
export const pipelineRunMessages = {
  'run.pipeline.stopped': { en: 'Stopped at {stage}: nothing half-written.', zh: '已在 {stage} 停止：没有写到一半的文件。' },
  'run.pipeline.budget': { en: 'The run’s token budget is spent ({used} of {budget} estimated tokens).', zh: '本次运行的 token 预算已用完（估算 {used} / {budget}）。' },
  'run.pipeline.loops': { en: 'The run made {steps} moves without reaching a stop; it stops here.', zh: '运行已移动 {steps} 次仍未到达停止点，在此停止。' },
  'run.pipeline.unknownStage': { en: 'The spec is at {stage}: only a person can recover it.', zh: '该规格处于 {stage}：只能由人来恢复。' },
  'run.pipeline.reviewGate': {
    en: 'At the review gate ({stage}): the reviewer’s review-feedback.md and your approval continue it.',
    zh: '已到审查关卡（{stage}）：需要审查者的 review-feedback.md 和你的批准才能继续。',
  },
  'run.pipeline.syncing': { en: 'Updating loom’s memory and handing the branch on…', zh: '正在更新 loom 记忆并交付分支…' },
  'run.pipeline.done': { en: 'The pipeline is done ({stage}).', zh: '流水线已完成（{stage}）。' },
  'run.pipeline.checked': { en: 'Checked the stage; reports: {reports}', zh: '已检查阶段；报告：{reports}' },
  'run.pipeline.worktree': { en: 'Worktree of {branch} at {path}', zh: '{branch} 的工作树位于 {path}' },
  'run.pipeline.verified': { en: 'Verification {verdict}; wrote {report}', zh: '验证结果 {verdict}；已写入 {report}' },
  'run.pipeline.verificationFailed': { en: 'Verification failed ({count} fix items): {first}', zh: '验证未通过（{count} 个修复项）：{first}' },
  'run.pipeline.reviewResponse': {
    en: 'At {stage}: answering the review feedback (fixes by the implementer) is not available in this build; answer it with @loom /respond, then run the pipeline again.',
    zh: '在 {stage}：此版本尚不能自动答复审查反馈（由实现者修复）；请用 @loom /respond 答复后再次运行流水线。',
  },
  'run.pipeline.notConfirmed': { en: 'The move out of {stage} was not confirmed.', zh: '离开 {stage} 的移动未获确认。' },
  'run.pipeline.correct': { en: 'Loom refused the move for these problems; correct the files:\n{problems}', zh: 'Loom 因以下问题拒绝了移动；请修正这些文件：\n{problems}' },
  'run.pipeline.drafting': { en: '/{command}: drafting with the model (round {round})', zh: '/{command}：正在用模型起草（第 {round} 轮）' },
  'run.pipeline.repair': { en: 'The checks found {count} problem(s); correction {attempt} of 2', zh: '检查发现 {count} 个问题；第 {attempt} 次修正（共 2 次）' },
  'run.pipeline.modelRefused': { en: 'The model refused or failed ({code}): {detail}', zh: '模型拒绝或失败（{code}）：{detail}' },
  'run.pipeline.noDrafts': {
    en: 'The model answered /{command} without files; answer it in @loom /{command}, then run again. It said: {reply}',
    zh: '模型对 /{command} 的回答没有文件；请在 @loom /{command} 中答复后再次运行。它说：{reply}',
  },
  'run.pipeline.checksFail': { en: 'The checks still fail after {rounds} corrections: {problems}', zh: '经过 {rounds} 次修正检查仍未通过：{problems}' },
  'run.pipeline.draftsWaiting': { en: 'The drafts of {stage} wait for you: write them to continue.', zh: '{stage} 的草稿等待你处理：写入后继续。' },
  'run.pipeline.wrote': { en: 'Wrote {files}', zh: '已写入 {files}' },
  'run.pipeline.moved': { en: 'Moved {from} → {to}', zh: '已移动 {from} → {to}' },
  'run.pipeline.fresh': { en: '{stage} was done already (its handoff is fresh): moving on.', zh: '{stage} 已完成（其交接文件仍有效）：继续前进。' },
  'run.pipeline.testReport': { en: 'The tasks ran, but test-report.md says {verdict}.', zh: '任务已运行，但 test-report.md 的结论是 {verdict}。' },
  'run.pipeline.approvalGate': { en: '{stage} is a human-approval gate: approve it to move on to {to}.', zh: '{stage} 是人工批准关卡：批准后进入 {to}。' },
} as const satisfies MessageTable;
