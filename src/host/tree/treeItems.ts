import { join } from 'node:path';
import * as vscode from 'vscode';
import type { StageHistoryEntry } from '../../core/port/files';
import { approvedByText, onAgentWord } from './approvedBy';
import { PIPELINE_STATE_FILE, type TaskStatus } from '../../core/port/vocabulary';
import { type SpecGroup, type StageOverview, type StageStatus, type TaskOverview, isStale, taskTitleWithoutId, checkpointsOf, readableReview } from '../../core/port/views';
import { specContext, stageRowContext } from './specContext';
import { localTime, md, relativeTime, splitSpecName } from '../format';
import type { SpecEntry } from '../specs/specRegistry';
import type { ArtifactNode, GroupNode, NoteNode, SpecNode, StageNode, TaskNode, TasksNode } from './nodes';
import { t } from '../../core/port/messages';
import { taskReviewSummary } from '../../core/port/taskReview';
import { taskReviewParts, taskReviewTip } from './taskReviewItems';

const icon = (id: string, color?: string) => new vscode.ThemeIcon(id, color ? new vscode.ThemeColor(color) : undefined);

export const STAGE_ICONS: Readonly<Record<StageStatus, [string, string]>> = {
  waiting: ['circle-large-outline', 'disabledForeground'],
  running: ['play-circle', 'charts.blue'],
  done: ['pass-filled', 'testing.iconPassed'],
  failed: ['error', 'testing.iconFailed'],
};

export const TASK_ICONS: Readonly<Record<TaskStatus, [string, string]>> = {
  pending: ['circle-large-outline', 'disabledForeground'],
  executing: ['sync~spin', 'charts.blue'],
  reviewing: ['eye', 'charts.purple'],
  done: ['pass', 'testing.iconPassed'],
  failed: ['error', 'testing.iconFailed'],
  blocked: ['circle-slash', 'list.warningForeground'],
};

const WARNING: [string, string] = ['warning', 'list.warningForeground'];

export function groupLabel(group: SpecGroup): string {
  switch (group) {
    case 'in-progress':
      return t('view.matrix.status.in_progress');
    case 'failed':
      return t('host.tree.failed');
    case 'done':
      return t('host.tree.done');
    case 'attention':
      return t('host.tree.needsAttention');
  }
}

export function groupItem(node: GroupNode, count: number): vscode.TreeItem {
  const item = new vscode.TreeItem(groupLabel(node.group), node.group === 'done' ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.Expanded);
  if (node.group === 'attention') item.iconPath = icon('warning', 'list.warningForeground');
  item.id = `group:${node.group}`;
  item.description = String(count);
  item.contextValue = 'loomGroup';
  return item;
}

/** The stage a spec stands at, in words for a row: `executing`, `failed`, `state unreadable`. */
export function stageText(e: SpecEntry): string {
  return e.spec.stage ?? t('host.commands.stateUnreadable');
}

/** `6 of 13 stages done`, where a row or the status bar is read; nothing while the stage is unknown. */
export function progressText(e: SpecEntry): string | undefined {
  return e.spec.stage === null ? undefined : t('host.tree.stagesDone', { done: e.overview.progress.done, total: e.overview.progress.total });
}

/** `executing · 6 of 13 stages done · 2h ago`, the description of a spec row. */
export function specDescription(e: SpecEntry, multiRoot: boolean): string {
  const progress = progressText(e);
  const parts = progress ? [stageText(e), progress] : [stageText(e)];
  const ago = relativeTime(e.spec.snapshot.state?.updated_at);
  if (ago) parts.push(ago);
  if (isStale(e.staleness)) parts.push(`⚠ ${t('host.tree.stale')}`);
  if (multiRoot) parts.push(e.folder.name);
  return parts.join(' · ');
}

export function specIcon(e: SpecEntry): vscode.ThemeIcon {
  if (e.spec.stage === null || e.overview.unreadable.length) return icon('error', 'errorForeground');
  if (e.overview.group === 'failed') return icon(...STAGE_ICONS.failed);
  if (isStale(e.staleness)) return icon(...WARNING);
  if (e.overview.group === 'done') return icon(...STAGE_ICONS.done);
  return icon(...STAGE_ICONS.running);
}

export function specItem(node: SpecNode, e: SpecEntry, multiRoot: boolean): vscode.TreeItem {
  const { feature } = splitSpecName(e.spec.snapshot.name);
  const item = new vscode.TreeItem(feature, vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `spec:${node.dir}`;
  item.description = specDescription(e, multiRoot);
  item.iconPath = specIcon(e);
  item.contextValue = specContext(e);
  return item;
}

/** The spec's tooltip: built on hover only, since it evaluates the next transition's guards. */
export function specTooltip(e: SpecEntry): vscode.MarkdownString {
  const s = e.spec.snapshot;
  const { date } = splitSpecName(s.name);
  const tip = new vscode.MarkdownString(undefined, true);
  tip.appendMarkdown(`**${md(s.name)}**  \n`);
  tip.appendMarkdown(`${md(s.specDir)} — ${md(e.folder.name)}\n\n`);
  if (date) tip.appendMarkdown(`${md(t('host.tree.created'))}: ${date}  \n`);
  tip.appendMarkdown(`${md(t('host.tree.stage'))}: \`${stageText(e)}\`${progressText(e) ? ` (${md(progressText(e)!)})` : ''}  \n`);
  tip.appendMarkdown(`${md(t('view.stepper.title'))}: ${md(e.spec.pipelineType)}${e.spec.stageSource === 'inferred' ? ` — ${md(t('host.tree.stageInferredFromArtifactsNo'))}` : ''}  \n`);
  if (s.state?.updated_at) tip.appendMarkdown(`${md(t('host.tree.updated'))}: ${localTime(s.state.updated_at)}  \n`);
  if (e.overview.failureReason) tip.appendMarkdown(`${md(t('host.tree.failure'))}: ${md(e.overview.failureReason)}  \n`);
  if (e.spec.stage === null) {
    tip.appendMarkdown(`\n$(error) ${md(t('host.tree.couldNotReadFixRestore', { PIPELINE_STATE_FILE }))}\n`);
    const problem = stateProblem(e);
    if (problem) tip.appendMarkdown(`\n${md(t('host.tree.line', { line: problem.line, message: problem.message }))}\n`);
  }
  for (const f of e.overview.unreadable) tip.appendMarkdown(`\n$(error) ${md(t('host.tree.couldNotReadFixRestore', { PIPELINE_STATE_FILE: f.file }))}\n`);
  const next = e.spec.next();
  for (const n of next) {
    tip.appendMarkdown(`\n${n.ready ? '$(arrow-right)' : '$(circle-slash)'} ${md(t('host.tree.next', { to: n.to }))}${n.ready ? '' : ` — ${md(t('host.commands.blocked'))}`}\n`);
    for (const r of n.unmet.slice(0, 5)) tip.appendMarkdown(`- ${md(r)}\n`);
  }
  appendStaleness(tip, e);
  return tip;
}

function appendStaleness(tip: vscode.MarkdownString, e: SpecEntry): void {
  const st = e.staleness;
  if (!isStale(st)) return;
  tip.appendMarkdown(`\n$(warning) **${md(t('host.tree.stale2'))}**\n`);
  for (const a of st.approvals) tip.appendMarkdown(`- ${md(t('host.tree.approvalStaleChangedSinceRe', { stage: a.stage, changed: a.changed.join(', ') }))}\n`);
  for (const h of st.handoffs) tip.appendMarkdown(`- ${md(t('host.tree.staleChangedSinceWasWritten', { handoff: h.handoff, changed: h.changed.join(', ') }))}\n`);
  for (const d of st.derived) tip.appendMarkdown(`- ${md(t('ask.staleDerived', { output: d.output, input: d.input }))}\n`);
}

/** The first error of the spec's pipeline.state.json: where the file stops being readable. */
export function stateProblem(e: SpecEntry): { line: number; column: number; message: string } | undefined {
  const file = `${e.spec.snapshot.specDir}/${PIPELINE_STATE_FILE}`;
  const d = e.spec.diagnostics.find((x) => x.file === file && x.severity === 'error');
  return d && { line: d.line, column: d.column, message: d.message };
}

/** Notes shown first under a spec: an unreadable state file (opened at its error's line), each stale fact. */
export function specNotes(e: SpecEntry): NoteNode[] {
  const notes: NoteNode[] = [];
  if (e.spec.stage === null) {
    const problem = stateProblem(e);
    notes.push(
      problem
        ? unreadableNote(e, `note:${e.dir}:corrupt`, { file: PIPELINE_STATE_FILE, ...problem })
        : {
            kind: 'note',
            id: `note:${e.dir}:corrupt`,
            dir: e.dir,
            file: PIPELINE_STATE_FILE,
            severity: 'error',
            label: t('host.tree.couldNotReadFixRestore', { PIPELINE_STATE_FILE }),
          },
    );
  }
  // Every other file that cannot be read, opened where it stops being readable: the reason the spec is under Needs attention.
  for (const f of e.overview.unreadable) notes.push(unreadableNote(e, `note:${e.dir}:unreadable:${f.file}`, f));
  for (const a of e.staleness.approvals) {
    notes.push({
      kind: 'note',
      id: `note:${e.dir}:approval:${a.stage}`,
      dir: e.dir,
      file: a.changed[0],
      severity: 'warning',
      staleApproval: a.stage,
      label: t('host.tree.reApprovalNeededChangedAfter', { changed: a.changed.join(', '), stage: a.stage }),
    });
  }
  for (const h of e.staleness.handoffs) {
    notes.push({
      kind: 'note',
      id: `note:${e.dir}:handoff:${h.handoff}`,
      dir: e.dir,
      file: h.handoff,
      severity: 'warning',
      label: t('host.tree.staleChangedSinceWasWritten', { handoff: h.handoff, changed: h.changed.join(', ') }),
    });
  }
  return notes;
}

/** A note on a file that cannot be read, which opens it at the line where it stops being readable. */
function unreadableNote(e: SpecEntry, id: string, f: { file: string; line: number; column: number; message: string }): NoteNode {
  return {
    kind: 'note',
    id,
    dir: e.dir,
    file: f.file,
    line: f.line,
    column: f.column,
    severity: 'error',
    label: t('host.tree.lineFixRestore', { file: f.file, line: f.line }),
    tooltip: t('host.tree.line', { line: f.line, message: f.message }),
  };
}

export function noteItem(node: NoteNode, root?: vscode.Uri): vscode.TreeItem {
  const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
  item.id = node.id;
  item.iconPath = node.severity === 'error' ? icon('error', 'errorForeground') : node.severity === 'warning' ? icon(...WARNING) : icon('info');
  item.tooltip = node.tooltip ?? node.label;
  item.contextValue = node.staleApproval ? 'loomNote:staleApproval' : 'loomNote';
  if (node.file && root) {
    const at = node.line ? new vscode.Range(node.line - 1, (node.column ?? 1) - 1, node.line - 1, (node.column ?? 1) - 1) : undefined;
    item.command = { command: 'vscode.open', title: t('host.tree.open'), arguments: at ? [vscode.Uri.joinPath(root, node.file), { selection: at }] : [vscode.Uri.joinPath(root, node.file)] };
    if (at) item.contextValue = 'loomNote:openAtLine';
  }
  return item;
}

/** The spec's Tasks shortcut: `Tasks · 2 of 5 done`. */
export function tasksItem(node: TasksNode, e: SpecEntry): vscode.TreeItem {
  const item = new vscode.TreeItem(t('view.matrix.col.tasks'), vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `tasks:${node.dir}`;
  const done = e.overview.tasks.filter((t) => t.status === 'done').length;
  item.description = t('host.tree.done2', { done, tasksCount: e.overview.tasks.length });
  item.iconPath = icon('checklist');
  item.contextValue = 'loomTasks';
  return item;
}

function visitLine(v: StageHistoryEntry): string {
  const parts = [`${md(v.status)}: ${localTime(v.entered_at)} → ${localTime(v.exited_at)}`];
  if (v.approval) parts.push(md(t('host.commands.approvedAt', { localTime: localTime(v.approved_at) })));
  const by = approvedByText(v);
  if (by) parts.push(md(by));
  if (v.reason) parts.push(`${md(t('host.tree.reason'))}: ${md(v.reason)}`);
  if (v.validator) parts.push(`${md(t('host.tree.validator'))}: ${md(v.validator)}`);
  if (v.recovery_from) parts.push(md(t('host.tree.recoveredFrom', { recovery_from: v.recovery_from })));
  return parts.join(' · ');
}

export function stageStatusText(status: StageStatus): string {
  switch (status) {
    case 'waiting':
      return t('view.step.waiting');
    case 'running':
      return t('host.tree.running');
    case 'done':
      return t('view.step.done');
    case 'failed':
      return t('view.step.failed');
  }
}

/**
 * What a stage's row says it is doing: a human-approval gate the spec is at waits for the person's
 * approval, however long ago it was entered; it is never "running". (An interactive stage runs:
 * its work is drafted, by a person with @loom or by Run Pipeline, before it is confirmed.)
 */
const gateWaits = (stage: StageOverview): boolean => stage.current && stage.status === 'running' && stage.humanApproval;

export function stageItem(node: StageNode, e: SpecEntry, stage: StageOverview, hasChildren: boolean): vscode.TreeItem {
  const item = new vscode.TreeItem(stage.id, hasChildren ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
  item.id = `stage:${node.dir}:${stage.id}`;
  const staleApproval = e.staleness.approvals.find((a) => a.stage === stage.id);
  const last = stage.visits[stage.visits.length - 1];
  const status = gateWaits(stage) ? t('host.tree.waitsForApproval') : stageStatusText(stage.status);
  const parts: string[] = [status];
  if (stage.current) {
    const since = relativeTime(stage.enteredAt);
    if (since) parts.push(t('host.tree.since', { since }));
    // One word for one thing, as the hover says it: a gate is approved, an interactive stage confirmed.
    if (stage.confirmation && !stage.humanApproval) parts.push(t('host.tree.needsConfirmation'));
  } else if (last?.approval) parts.push(onAgentWord(last) ? t('agentHost.tree.approvedOnAgentWord') : t('host.tree.approved'));
  if (stage.visits.length > 1) parts.push(t('host.tree.visits', { visitsCount: stage.visits.length }));
  if (staleApproval) parts.push(`⚠ ${t('host.general.approvalStale')}`);
  item.description = parts.join(' · ');
  item.iconPath = staleApproval ? icon(...WARNING) : icon(...STAGE_ICONS[stage.status]);
  item.contextValue = stageRowContext(e, stage, staleApproval !== undefined);

  const tip = new vscode.MarkdownString(undefined, true);
  tip.appendMarkdown(`**${md(stage.id)}** — ${md(status)}\n\n`);
  if (stage.description) tip.appendMarkdown(`${md(stage.description)}\n\n`);
  if (stage.current && stage.enteredAt) tip.appendMarkdown(`${md(t('host.tree.entered'))}: ${localTime(stage.enteredAt)}\n\n`);
  for (const v of stage.visits) tip.appendMarkdown(`- ${visitLine(v)}\n`);
  if (stage.humanApproval) tip.appendMarkdown(`\n$(shield) ${md(t('host.tree.humanApprovalGateLeavingNeeds'))}\n`);
  else if (stage.confirmation) tip.appendMarkdown(`\n$(person) ${md(t('host.tree.interactiveStageLeavingNeedsYour'))}\n`);
  if (staleApproval) tip.appendMarkdown(`\n$(warning) ${md(t('host.tree.approvalStaleChangedSinceRe', { stage: stage.id, changed: staleApproval.changed.join(', ') }))}\n`);
  if (stage.status === 'failed' && e.overview.failureReason) tip.appendMarkdown(`\n$(error) ${md(e.overview.failureReason)}\n`);
  item.tooltip = tip;
  return item;
}

function taskStatusText(status: TaskStatus): string {
  switch (status) {
    case 'pending':
      return t('host.tree.pending');
    case 'executing':
      return t('host.tree.executing');
    case 'reviewing':
      return t('host.tree.reviewing');
    case 'done':
      return t('view.step.done');
    case 'failed':
      return t('view.step.failed');
    case 'blocked':
      return t('host.commands.blocked');
  }
}

/**
 * A review result or blocker in a tooltip: its words on the label's line, then loom's fix items
 * as a numbered list (problem, where, severity, direction), never `## 修复指令` as literal text.
 */
function reviewMarkdown(label: string, text: string): string {
  const { summary, items } = readableReview(text);
  // Without words of its own, the label heads its fix items: a dash there would read as "none".
  const head = summary || (items.length === 1 ? t('host.tree.1FixItem') : items.length ? t('host.tree.fixItems', { itemsCount: items.length }) : '');
  const lines = [`${md(label)}: ${md(head || text.trim())}  `];
  if (items.length) lines.push('');
  items.forEach((item, i) => {
    const where = item.file ? ` — \`${item.location ? `${item.file}:${item.location}` : item.file}\`` : '';
    lines.push(`${i + 1}. ${item.severity ? `**${md(item.severity)}** ` : ''}${md(item.problem)}${where}`);
    if (item.direction) lines.push(`   ${md(t('verify.report.direction'))}: ${md(item.direction)}`);
  });
  return `${lines.join('\n')}\n${items.length ? '\n' : ''}`;
}

export function taskItem(node: TaskNode, e: SpecEntry, task: TaskOverview): vscode.TreeItem {
  const item = new vscode.TreeItem(task.id, vscode.TreeItemCollapsibleState.None);
  item.id = `task:${node.dir}:${task.id}`;
  const title = taskTitleWithoutId(task.id, task.title);
  const parts = [taskStatusText(task.status)];
  if (task.retries > 0) parts.push(task.retries === 1 ? t('host.tree.1Retry') : t('host.tree.retries', { retries: task.retries }));
  if (task.status === 'blocked' && task.blocker) parts.push(readableReview(task.blocker).summary || task.blocker);
  if (title) parts.unshift(title);
  const review = taskReviewSummary(e.spec.snapshot, task.id);
  if (review) parts.push(...taskReviewParts(review));
  item.description = parts.join(' · ');
  item.iconPath = icon(...TASK_ICONS[task.status]);
  // A task with a checkpoint offers Review Changes, Reject File and Rewind to Before it.
  const checkpoints = checkpointsOf(e.spec.snapshot.taskStates.get(task.id));
  item.contextValue = `loomTask:${task.status}${checkpoints.length ? ':checkpoint' : ''}`;
  const tip = new vscode.MarkdownString(undefined, true);
  tip.appendMarkdown(`**${md(task.id)}**${title ? ` — ${md(title)}` : ''}\n\n`);
  tip.appendMarkdown(`${md(t('view.tasks.col.status'))}: ${md(taskStatusText(task.status))}  \n`);
  tip.appendMarkdown(`${md(t('view.tasks.col.retries'))}: ${task.retries}  \n`);
  if (task.blocker) tip.appendMarkdown(reviewMarkdown(t('view.tasks.col.blocker'), task.blocker));
  if (task.lastReviewerResult) tip.appendMarkdown(reviewMarkdown(t('view.tasks.col.lastReview'), task.lastReviewerResult));
  if (task.updatedAt) tip.appendMarkdown(`${md(t('host.tree.updated'))}: ${localTime(task.updatedAt)}  \n`);
  const last = checkpoints.at(-1);
  if (last) tip.appendMarkdown(`${md(t('host.tree.checkpoint', { commit: last.commit.slice(0, 8) }))}: ${md(last.files.join(', '))}  \n`);
  if (review) tip.appendMarkdown(taskReviewTip(review));
  item.tooltip = tip;
  if (task.path) {
    item.command = { command: 'vscode.open', title: t('host.tree.open'), arguments: [vscode.Uri.file(join(e.dir, task.path))] };
  }
  return item;
}

export function artifactItem(node: ArtifactNode, e: SpecEntry, stage: StageOverview | undefined, exists: boolean): vscode.TreeItem {
  const item = new vscode.TreeItem(node.path, vscode.TreeItemCollapsibleState.None);
  item.id = `artifact:${node.dir}:${node.stage}:${node.path}`;
  const uri = vscode.Uri.file(join(e.dir, node.path));
  const stale = [
    ...e.staleness.derived.filter((d) => d.output === node.path).map((d) => t('host.tree.olderThan', { input: d.input })),
    ...e.staleness.handoffs.filter((h) => h.handoff === node.path).map(() => t('host.tree.staleHandoff')),
  ];
  if (exists) {
    item.resourceUri = uri;
    item.command = node.path.endsWith('/') ? { command: 'revealInExplorer', title: t('host.tree.reveal'), arguments: [uri] } : { command: 'vscode.open', title: t('host.tree.open'), arguments: [uri] };
    item.contextValue = 'loomArtifact';
    if (stale.length) {
      item.description = `⚠ ${stale.join(', ')}`;
      item.iconPath = icon(...WARNING);
    } else {
      item.iconPath = node.path.endsWith('/') ? vscode.ThemeIcon.Folder : vscode.ThemeIcon.File;
    }
    item.tooltip = stale.length ? `${node.path}\n⚠ ${stale.join('\n⚠ ')}` : node.path;
  } else {
    const due = stage && stage.status !== 'waiting';
    item.description = due ? t('host.tree.missing') : t('host.tree.notYetWritten');
    item.iconPath = due ? icon(...WARNING) : icon('circle-large-outline', 'disabledForeground');
    item.contextValue = 'loomArtifact:missing';
    item.tooltip = due ? t('host.tree.requiredOutputDoesNotExist', { path: node.path, stage: node.stage }) : t('host.tree.willWritten', { path: node.path, stage: node.stage });
  }
  return item;
}
