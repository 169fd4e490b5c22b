import { join } from 'node:path';
import * as vscode from 'vscode';
import type { StageHistoryEntry } from '../../core/files/pipelineState';
import { PIPELINE_STATE_FILE } from '../../core/files/pipelineState';
import { FAILED_STAGE, type TaskStatus } from '../../core/files/vocabulary';
import type { SpecGroup, StageOverview, StageStatus, TaskOverview } from '../../core/specdir/specOverview';
import { isStale } from '../../core/specdir/staleness';
import { hasRole } from '../../core/pipeline/stageRoles';
import { specOffers, type SpecOffers } from '../../core/port/offers';
import { localTime, md, relativeTime, splitSpecName } from '../format';
import type { SpecEntry } from '../specs/specRegistry';
import type { ArtifactNode, GroupNode, NoteNode, SpecNode, StageNode, TaskNode, TasksNode } from './nodes';
import { taskTitleWithoutId } from '../../core/tasks/taskTitle';
import { checkpointsOf } from '../../core/executing/review/taskChanges';
import { readableReview } from '../../core/executing/dispatch/fixInstructions';

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
      return vscode.l10n.t('In progress');
    case 'failed':
      return vscode.l10n.t('Failed');
    case 'done':
      return vscode.l10n.t('Done');
    case 'attention':
      return vscode.l10n.t('Needs attention');
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
  return e.spec.stage ?? vscode.l10n.t('state unreadable');
}

/** `6 of 13 stages done`, where a row or the status bar is read; nothing while the stage is unknown. */
export function progressText(e: SpecEntry): string | undefined {
  return e.spec.stage === null ? undefined : vscode.l10n.t('{0} of {1} stages done', e.overview.progress.done, e.overview.progress.total);
}

/** `executing · 6 of 13 stages done · 2h ago`, the description of a spec row. */
export function specDescription(e: SpecEntry, multiRoot: boolean): string {
  const progress = progressText(e);
  const parts = progress ? [stageText(e), progress] : [stageText(e)];
  const ago = relativeTime(e.spec.snapshot.state?.updated_at);
  if (ago) parts.push(ago);
  if (isStale(e.staleness)) parts.push(`⚠ ${vscode.l10n.t('stale')}`);
  if (multiRoot) parts.push(e.folder.name);
  return parts.join(' · ');
}

/** What the spec's context menu and inline buttons offer, as `loomSpec:<state>[:approve][:stale]`. */
export function specContext(e: SpecEntry): string {
  const stage = e.spec.stage;
  const state = stage === null ? 'corrupt' : stage === FAILED_STAGE ? 'failed' : e.overview.group === 'done' ? 'done' : 'running';
  // What the spec offers is the core's (specOffers), as the dashboard and @loom show it.
  const offers = specOffers(e.spec);
  // `:staleApproval`: an approval of a gate already passed went stale (Approve Again).
  const staleApproval = offers.approveAgain.length > 0;
  return `loomSpec:${state}${offers.approve ? ':approve' : ''}${isStale(e.staleness) ? ':stale' : ''}${staleApproval ? ':staleApproval' : ''}${stageContext(e, offers)}`;
}

/**
 * Appended last, so the menus' `viewItem =~ /^loomSpec:running/` patterns keep matching:
 * `:executing` at the stage where tasks run (Run Tasks, Stop Tasks), `:worktree` where Create
 * Worktree helps (the git-worktree stage, or executing with no worktree recorded).
 */
function stageContext(e: SpecEntry, offers: SpecOffers): string {
  const stage = e.spec.stage;
  if (!stage) return '';
  // `:worktree` where Create Worktree helps: the git-worktree stage, or executing where the actor finds no worktree.
  // `:verification` where Loom: Verify runs the project's checks and tests.
  // `:reviewResponse` / `:reviewGate` where Loom: Answer Review would be taken (the review's BLOCKERs, or its response, to do).
  const answer = offers.answerReview ? (hasRole(e.spec.definition, stage, 'reviewGate') ? ':reviewGate' : ':reviewResponse') : '';
  return `${offers.runTasks ? ':executing' : ''}${offers.createWorktree ? ':worktree' : ''}${offers.verify ? ':verification' : ''}${answer}${offers.sync ? ':sync' : ''}`;
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
  const t = new vscode.MarkdownString(undefined, true);
  t.appendMarkdown(`**${md(s.name)}**  \n`);
  t.appendMarkdown(`${md(s.specDir)} — ${md(e.folder.name)}\n\n`);
  if (date) t.appendMarkdown(`${md(vscode.l10n.t('Created'))}: ${date}  \n`);
  t.appendMarkdown(`${md(vscode.l10n.t('Stage'))}: \`${stageText(e)}\`${progressText(e) ? ` (${md(progressText(e)!)})` : ''}  \n`);
  t.appendMarkdown(
    `${md(vscode.l10n.t('Pipeline'))}: ${md(e.spec.pipelineType)}${e.spec.stageSource === 'inferred' ? ` — ${md(vscode.l10n.t('stage inferred from the artifacts (no pipeline.state.json)'))}` : ''}  \n`,
  );
  if (s.state?.updated_at) t.appendMarkdown(`${md(vscode.l10n.t('Updated'))}: ${localTime(s.state.updated_at)}  \n`);
  if (e.overview.failureReason) t.appendMarkdown(`${md(vscode.l10n.t('Failure'))}: ${md(e.overview.failureReason)}  \n`);
  if (e.spec.stage === null) {
    t.appendMarkdown(`\n$(error) ${md(vscode.l10n.t('{0} could not be read; fix or restore it.', PIPELINE_STATE_FILE))}\n`);
    const problem = stateProblem(e);
    if (problem) t.appendMarkdown(`\n${md(vscode.l10n.t('Line {0}: {1}', problem.line, problem.message))}\n`);
  }
  for (const f of e.overview.unreadable) t.appendMarkdown(`\n$(error) ${md(vscode.l10n.t('{0} could not be read; fix or restore it.', f.file))}\n`);
  const next = e.spec.next();
  for (const n of next) {
    t.appendMarkdown(`\n${n.ready ? '$(arrow-right)' : '$(circle-slash)'} ${md(vscode.l10n.t('Next: {0}', n.to))}${n.ready ? '' : ` — ${md(vscode.l10n.t('blocked'))}`}\n`);
    for (const r of n.unmet.slice(0, 5)) t.appendMarkdown(`- ${md(r)}\n`);
  }
  appendStaleness(t, e);
  return t;
}

function appendStaleness(t: vscode.MarkdownString, e: SpecEntry): void {
  const st = e.staleness;
  if (!isStale(st)) return;
  t.appendMarkdown(`\n$(warning) **${md(vscode.l10n.t('Stale'))}**\n`);
  for (const a of st.approvals) t.appendMarkdown(`- ${md(vscode.l10n.t('The approval of {0} is stale: {1} changed since; re-approval is needed.', a.stage, a.changed.join(', ')))}\n`);
  for (const h of st.handoffs) t.appendMarkdown(`- ${md(vscode.l10n.t('{0} is stale: {1} changed since it was written.', h.handoff, h.changed.join(', ')))}\n`);
  for (const d of st.derived) t.appendMarkdown(`- ${md(vscode.l10n.t('{0} is older than {1}, which it is derived from.', d.output, d.input))}\n`);
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
            label: vscode.l10n.t('{0} could not be read; fix or restore it.', PIPELINE_STATE_FILE),
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
      label: vscode.l10n.t('Re-approval needed: {0} changed after {1} was approved', a.changed.join(', '), a.stage),
    });
  }
  for (const h of e.staleness.handoffs) {
    notes.push({
      kind: 'note',
      id: `note:${e.dir}:handoff:${h.handoff}`,
      dir: e.dir,
      file: h.handoff,
      severity: 'warning',
      label: vscode.l10n.t('{0} is stale: {1} changed since it was written.', h.handoff, h.changed.join(', ')),
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
    label: vscode.l10n.t('{0} line {1}: fix or restore it', f.file, f.line),
    tooltip: vscode.l10n.t('Line {0}: {1}', f.line, f.message),
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
    item.command = { command: 'vscode.open', title: vscode.l10n.t('Open'), arguments: at ? [vscode.Uri.joinPath(root, node.file), { selection: at }] : [vscode.Uri.joinPath(root, node.file)] };
    if (at) item.contextValue = 'loomNote:openAtLine';
  }
  return item;
}

/** The spec's Tasks shortcut: `Tasks · 2 of 5 done`. */
export function tasksItem(node: TasksNode, e: SpecEntry): vscode.TreeItem {
  const item = new vscode.TreeItem(vscode.l10n.t('Tasks'), vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `tasks:${node.dir}`;
  const done = e.overview.tasks.filter((t) => t.status === 'done').length;
  item.description = vscode.l10n.t('{0} of {1} done', done, e.overview.tasks.length);
  item.iconPath = icon('checklist');
  item.contextValue = 'loomTasks';
  return item;
}

function visitLine(v: StageHistoryEntry): string {
  const parts = [`${md(v.status)}: ${localTime(v.entered_at)} → ${localTime(v.exited_at)}`];
  if (v.approval) parts.push(md(vscode.l10n.t('approved at {0}', localTime(v.approved_at))));
  if (v.reason) parts.push(`${md(vscode.l10n.t('reason'))}: ${md(v.reason)}`);
  if (v.validator) parts.push(`${md(vscode.l10n.t('validator'))}: ${md(v.validator)}`);
  if (v.recovery_from) parts.push(md(vscode.l10n.t('recovered from {0}', v.recovery_from)));
  return parts.join(' · ');
}

export function stageStatusText(status: StageStatus): string {
  switch (status) {
    case 'waiting':
      return vscode.l10n.t('waiting');
    case 'running':
      return vscode.l10n.t('running');
    case 'done':
      return vscode.l10n.t('done');
    case 'failed':
      return vscode.l10n.t('failed');
  }
}

export function stageItem(node: StageNode, e: SpecEntry, stage: StageOverview, hasChildren: boolean): vscode.TreeItem {
  const item = new vscode.TreeItem(stage.id, hasChildren ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
  item.id = `stage:${node.dir}:${stage.id}`;
  const staleApproval = e.staleness.approvals.find((a) => a.stage === stage.id);
  const last = stage.visits[stage.visits.length - 1];
  const parts: string[] = [stageStatusText(stage.status)];
  if (stage.current) {
    const since = relativeTime(stage.enteredAt);
    if (since) parts.push(vscode.l10n.t('since {0}', since));
    // One word for one thing, as the hover says it: a gate is approved, an interactive stage confirmed.
    if (stage.humanApproval) parts.push(vscode.l10n.t('needs approval'));
    else if (stage.confirmation) parts.push(vscode.l10n.t('needs confirmation'));
  } else if (last?.approval) parts.push(vscode.l10n.t('approved'));
  if (stage.visits.length > 1) parts.push(vscode.l10n.t('{0} visits', stage.visits.length));
  if (staleApproval) parts.push(`⚠ ${vscode.l10n.t('approval stale')}`);
  item.description = parts.join(' · ');
  item.iconPath = staleApproval ? icon(...WARNING) : icon(...STAGE_ICONS[stage.status]);
  item.contextValue = `loomStage:${stage.status}${stage.current && stage.confirmation ? ':approve' : ''}${staleApproval && !stage.current ? ':staleApproval' : ''}`;

  const t = new vscode.MarkdownString(undefined, true);
  t.appendMarkdown(`**${md(stage.id)}** — ${md(stageStatusText(stage.status))}\n\n`);
  if (stage.description) t.appendMarkdown(`${md(stage.description)}\n\n`);
  if (stage.current && stage.enteredAt) t.appendMarkdown(`${md(vscode.l10n.t('Entered'))}: ${localTime(stage.enteredAt)}\n\n`);
  for (const v of stage.visits) t.appendMarkdown(`- ${visitLine(v)}\n`);
  if (stage.humanApproval) t.appendMarkdown(`\n$(shield) ${md(vscode.l10n.t('Human-approval gate: leaving it needs your approval'))}\n`);
  else if (stage.confirmation) t.appendMarkdown(`\n$(person) ${md(vscode.l10n.t('Interactive stage: leaving it needs your confirmation'))}\n`);
  if (staleApproval) t.appendMarkdown(`\n$(warning) ${md(vscode.l10n.t('The approval of {0} is stale: {1} changed since; re-approval is needed.', stage.id, staleApproval.changed.join(', ')))}\n`);
  if (stage.status === 'failed' && e.overview.failureReason) t.appendMarkdown(`\n$(error) ${md(e.overview.failureReason)}\n`);
  item.tooltip = t;
  return item;
}

function taskStatusText(status: TaskStatus): string {
  switch (status) {
    case 'pending':
      return vscode.l10n.t('pending');
    case 'executing':
      return vscode.l10n.t('executing');
    case 'reviewing':
      return vscode.l10n.t('reviewing');
    case 'done':
      return vscode.l10n.t('done');
    case 'failed':
      return vscode.l10n.t('failed');
    case 'blocked':
      return vscode.l10n.t('blocked');
  }
}

/**
 * A review result or blocker in a tooltip: its words on the label's line, then loom's fix items
 * as a numbered list (problem, where, severity, direction), never `## 修复指令` as literal text.
 */
function reviewMarkdown(label: string, text: string): string {
  const { summary, items } = readableReview(text);
  // Without words of its own, the label heads its fix items: a dash there would read as "none".
  const head = summary || (items.length === 1 ? vscode.l10n.t('1 fix item') : items.length ? vscode.l10n.t('{0} fix items', items.length) : '');
  const lines = [`${md(label)}: ${md(head || text.trim())}  `];
  if (items.length) lines.push('');
  items.forEach((item, i) => {
    const where = item.file ? ` — \`${item.location ? `${item.file}:${item.location}` : item.file}\`` : '';
    lines.push(`${i + 1}. ${item.severity ? `**${md(item.severity)}** ` : ''}${md(item.problem)}${where}`);
    if (item.direction) lines.push(`   ${md(vscode.l10n.t('Direction'))}: ${md(item.direction)}`);
  });
  return `${lines.join('\n')}\n${items.length ? '\n' : ''}`;
}

export function taskItem(node: TaskNode, e: SpecEntry, task: TaskOverview): vscode.TreeItem {
  const item = new vscode.TreeItem(task.id, vscode.TreeItemCollapsibleState.None);
  item.id = `task:${node.dir}:${task.id}`;
  const title = taskTitleWithoutId(task.id, task.title);
  const parts = [taskStatusText(task.status)];
  if (task.retries > 0) parts.push(task.retries === 1 ? vscode.l10n.t('1 retry') : vscode.l10n.t('{0} retries', task.retries));
  if (task.status === 'blocked' && task.blocker) parts.push(readableReview(task.blocker).summary || task.blocker);
  if (title) parts.unshift(title);
  item.description = parts.join(' · ');
  item.iconPath = icon(...TASK_ICONS[task.status]);
  // A task with a checkpoint offers Review Changes, Reject File and Rewind to Before it.
  const checkpoints = checkpointsOf(e.spec.snapshot.taskStates.get(task.id));
  item.contextValue = `loomTask:${task.status}${checkpoints.length ? ':checkpoint' : ''}`;
  const t = new vscode.MarkdownString(undefined, true);
  t.appendMarkdown(`**${md(task.id)}**${title ? ` — ${md(title)}` : ''}\n\n`);
  t.appendMarkdown(`${md(vscode.l10n.t('Status'))}: ${md(taskStatusText(task.status))}  \n`);
  t.appendMarkdown(`${md(vscode.l10n.t('Retries'))}: ${task.retries}  \n`);
  if (task.blocker) t.appendMarkdown(reviewMarkdown(vscode.l10n.t('Blocker'), task.blocker));
  if (task.lastReviewerResult) t.appendMarkdown(reviewMarkdown(vscode.l10n.t('Last review'), task.lastReviewerResult));
  if (task.updatedAt) t.appendMarkdown(`${md(vscode.l10n.t('Updated'))}: ${localTime(task.updatedAt)}  \n`);
  const last = checkpoints.at(-1);
  if (last) t.appendMarkdown(`${md(vscode.l10n.t('checkpoint {0}', last.commit.slice(0, 8)))}: ${md(last.files.join(', '))}  \n`);
  item.tooltip = t;
  if (task.path) {
    item.command = { command: 'vscode.open', title: vscode.l10n.t('Open'), arguments: [vscode.Uri.file(join(e.dir, task.path))] };
  }
  return item;
}

export function artifactItem(node: ArtifactNode, e: SpecEntry, stage: StageOverview | undefined, exists: boolean): vscode.TreeItem {
  const item = new vscode.TreeItem(node.path, vscode.TreeItemCollapsibleState.None);
  item.id = `artifact:${node.dir}:${node.stage}:${node.path}`;
  const uri = vscode.Uri.file(join(e.dir, node.path));
  const stale = [
    ...e.staleness.derived.filter((d) => d.output === node.path).map((d) => vscode.l10n.t('older than {0}', d.input)),
    ...e.staleness.handoffs.filter((h) => h.handoff === node.path).map(() => vscode.l10n.t('stale handoff')),
  ];
  if (exists) {
    item.resourceUri = uri;
    item.command = node.path.endsWith('/')
      ? { command: 'revealInExplorer', title: vscode.l10n.t('Reveal'), arguments: [uri] }
      : { command: 'vscode.open', title: vscode.l10n.t('Open'), arguments: [uri] };
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
    item.description = due ? vscode.l10n.t('missing') : vscode.l10n.t('not yet written');
    item.iconPath = due ? icon(...WARNING) : icon('circle-large-outline', 'disabledForeground');
    item.contextValue = 'loomArtifact:missing';
    item.tooltip = due ? vscode.l10n.t('{0} is a required output of {1} and does not exist.', node.path, node.stage) : vscode.l10n.t('{0} will be written by {1}.', node.path, node.stage);
  }
  return item;
}
