import type { MessageTable } from './catalogTypes';

/** Moving a synced spec's drift baseline: Accept as Accurate, Reconcile (src/core/drift/baselineMove.ts and its surfaces). */
export const driftReconcileMessages = {
  'drift.summary.unreadable': {
    en: '{file} cannot be read: whether the spec drifted is unknown (fix the file; Loom does not write it)',
    zh: '{file} 无法读取：无法判断规格是否漂移（请修复该文件；Loom 不会写入它）',
  },
  'drift.accept.noReason': {
    en: 'Accept as Accurate for {specDir} needs a reason: say why the code as it is now is what the spec means.',
    zh: '{specDir} 的“确认准确”需要理由：请说明为何现在的代码就是规格的本意。',
  },
  'drift.accept.personRequired': {
    en: "Accept as Accurate for {specDir} is a person's act, and loom.approvals.requirePerson takes no agent's word for it: the person accepts it in the editor or at a terminal.",
    zh: '{specDir} 的“确认准确”须由本人完成，loom.approvals.requirePerson 不接受代理的转述：请本人在编辑器或终端中确认。',
  },
  'drift.accept.noCommit': {
    en: '{specDir} is not in a git repository with a commit: there is no commit to move the baseline to.',
    zh: '{specDir} 不在有提交的 git 仓库中：没有可作为基线的提交。',
  },
  'drift.accept.noState': {
    en: '{specDir} has no pipeline.state.json: the baseline is recorded there, so there is nothing to move.',
    zh: '{specDir} 没有 pipeline.state.json：基线记录在其中，无从移动。',
  },
  'drift.accept.notSynced': {
    en: '{specDir} is at {stage}, not at {sync}: only a synced spec has a baseline to move.',
    zh: '{specDir} 处于 {stage}，不在 {sync}：只有已同步的规格才有可移动的基线。',
  },
  'drift.accept.noSyncStage': { en: 'The pipeline {pipeline} has no stage that syncs: its specs have no drift baseline.', zh: '流水线 {pipeline} 没有同步阶段：其规格没有漂移基线。' },
  'drift.accept.done': {
    en: '{specDir}: the baseline is now {commit} ({source} by {by}: {reason})',
    zh: '{specDir}：基线现为 {commit}（{by} {source}：{reason}）',
  },
  'drift.source.accepted': { en: 'accepted as accurate', zh: '确认准确' },
  'drift.source.reconciled': { en: 'reconciled', zh: '已调和' },
  'host.drift.acceptTitle': { en: 'Accept {specDir} as accurate', zh: '确认 {specDir} 准确' },
  'host.drift.acceptPrompt': {
    en: 'Why is the code as it is now what the spec means? (recorded with your name beside the new baseline)',
    zh: '为何现在的代码就是规格的本意？（与你的名字一起记录在新基线旁）',
  },
  'host.drift.acceptReasonNeeded': { en: 'Say why: the reason is recorded with the baseline.', zh: '请说明理由：理由会与基线一起记录。' },
  'host.drift.acceptWhichSpec': { en: 'Which synced spec is accurate as the code is now?', zh: '哪个已同步的规格与现在的代码一致？' },
  'host.drift.diffWhichFile': { en: 'Which file of {specDir} changed since its baseline?', zh: '{specDir} 基线以来变更的哪个文件？' },
  'host.drift.notDrifted': { en: '{specDir} has no drift in {file} to show.', zh: '{specDir} 的 {file} 没有可显示的漂移。' },
  'host.drift.diffTitle': { en: '{file} (baseline {commit} ↔ working tree)', zh: '{file}（基线 {commit} ↔ 工作区）' },
  'reconcile.requirementDropped': {
    en: 'requirements.json drops {id}: a reconcile keeps every requirement id (its behaviors marked superseded when the code no longer has them)',
    zh: 'requirements.json 删除了 {id}：调和必须保留每个需求 id（代码不再具备的行为标记为 superseded）',
  },
  'reconcile.behaviorDropped': {
    en: 'requirements.json drops the behavior {id}: keep it with "status": "superseded" when the code no longer has it, never delete it',
    zh: 'requirements.json 删除了行为 {id}：代码不再具备时请保留并设为 "status": "superseded"，不要删除',
  },
  'host.drift.reconciled': {
    en: 'Wrote {files} in {specDir}, and moved its baseline to HEAD: the spec says again what the code does.',
    zh: '已在 {specDir} 写入 {files}，并把基线移到 HEAD：规格重新与代码一致。',
  },
  'host.drift.nothingToReconcile': { en: '{specDir} has nothing to reconcile: {summary}.', zh: '{specDir} 无需调和：{summary}。' },
  'host.drift.readingDiff': { en: 'Reading what the code did since the baseline…', zh: '正在读取基线以来的代码变化…' },
  'host.drift.modelPurpose': { en: 'Loom reconciles a synced spec with its code', zh: 'Loom 将已同步的规格与代码调和' },
  'host.drift.reconcileNeedsModel': {
    en: 'Reconcile needs a language model, and none is available: install or sign in to a chat model provider (or Accept as Accurate instead).',
    zh: '调和需要语言模型，但当前没有可用模型：请安装或登录聊天模型提供方（或改用“确认准确”）。',
  },
  'run.reconcile.nothing': { en: 'Reconcile: nothing to do, the spec is {summary}.', zh: '调和：无需操作，规格{summary}。' },
  'run.reconcile.drifted': { en: 'Reconcile: {summary}; the model amends the spec.', zh: '调和：{summary}；由模型修订规格。' },
  'run.reconcile.wrote': { en: 'Reconcile: wrote {files}; the baseline is now {commit}.', zh: '调和：已写入 {files}；基线现为 {commit}。' },
  'cli.drift.acceptNeedsSpec': {
    en: 'drift --accept needs --spec-dir D and --reason "why the code is what the spec means"',
    zh: 'drift --accept 需要 --spec-dir D 和 --reason "为何代码就是规格的本意"',
  },
  'cli.drift.reasonOnlyWithAccept': { en: '--reason is taken only with drift --accept', zh: '--reason 只能与 drift --accept 一起使用' },
  // The reconcile step's prompt (src/core/drift/reconcile.ts), in the spec's language.
  'reconcile.prompt.rules': {
    en: `You are loom's reconcile step for a feature whose spec reached synced: its code moved on since
the spec's baseline commit, and the spec must say again what the code does. Propose the smallest
amendment of the spec's own files, never a rewrite:
- Keep every requirement id and every behavior id. Never renumber, never delete one.
- A behavior the code no longer has: keep it, with "status": "superseded", and say in its
  description what replaced it. A new behavior the code now has gets the next free id of its
  requirement.
- Change only the sentences, acceptance criteria, task owns and traceability entries the diff
  makes untrue (a renamed file is renamed where it is named; a deleted test is taken out of the
  traceability of its behavior, and the behavior is said to have no test yet).
- Leave every other line as it is. Comment threads are kept by Loom; do not mention them.`,
    zh: `你是 loom 的调和（reconcile）步骤：该功能的规格已到达 synced，但代码在规格的基线提交之后又有变化，
规格需要重新说明代码的实际行为。请提出对规格自身文件最小的修订，绝不重写：
- 保留每个需求 id 和每个行为 id。不要重新编号，不要删除。
- 代码中已不存在的行为：保留它，设为 "status": "superseded"，并在描述中说明被什么取代。代码新有的行为使用其需求下一个空闲 id。
- 只修改被差异变得不正确的句子、验收标准、任务 owns 和追踪条目（被重命名的文件在其出现处改名；被删除的测试从其行为的追踪中移除，并说明该行为尚无测试）。
- 其他行保持不变。评论讨论由 Loom 保留，不要提及。`,
  },
  'reconcile.prompt.format': {
    en: `Write each file you amend as a block of its own, with marker lines exactly like these
(not a Markdown code fence):

=== FILE: requirements.json ===
…the whole file…
=== END FILE ===

Paths are relative to the spec directory. Always give the complete file. Propose only the files
you change. Outside the blocks, say briefly what changed and why. You may write only: {writes}.`,
    zh: `每个修订的文件单独成块，标记行必须完全如下（不是 Markdown 代码块）：

=== FILE: requirements.json ===
…整个文件…
=== END FILE ===

路径相对于规格目录。始终给出完整文件。只提出你修改的文件。块外简要说明改了什么、为什么。只能写：{writes}。`,
  },
  'reconcile.prompt.feature': { en: 'Feature: {specDir}; baseline {baseline}', zh: '功能：{specDir}；基线 {baseline}' },
  'reconcile.prompt.changed': { en: 'What changed since the baseline (commits, then git diff)', zh: '基线以来的变化（提交，然后 git diff）' },
  'reconcile.prompt.specFiles': { en: 'The spec files now', zh: '规格文件现状' },
  'reconcile.prompt.person': { en: 'The person says', zh: '用户说' },
  'reconcile.prompt.nothingMore': { en: '(nothing more)', zh: '（无）' },
} as const satisfies MessageTable;
