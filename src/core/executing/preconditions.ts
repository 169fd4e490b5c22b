import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic';
import { PIPELINE_STATE_FILE } from '../files/pipelineState';
import { normalizeTaskRef } from '../files/taskFile';
import { FAILED_STAGE } from '../files/vocabulary';
import type { PipelineDefinition, StageDefinition } from '../pipeline/pipelineDefinition';
import { stageWithRole } from '../pipeline/stageRoles';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { findWorktree } from '../specdir/worktree';
import { planTaskBatches, taskDependencyDiagnostics } from '../tasks/taskBatches';
import { t as text } from '../messages';

/**
 * What must hold before the executing loop dispatches anything (loom: "禁止在 spec 未批准、plan
 * 未确认前开始实现"): the plan approved, the worktree there, the planning artifacts readable, the
 * task graph sound, and every task's `behavior_ids` mapped to that task in traceability.json.
 * Each failure is a diagnostic that says which file and which task.
 */
export interface ExecutingPreconditions {
  ok: boolean;
  diagnostics: Diagnostic[];
  stage?: StageDefinition;
  worktree?: string;
}

/** The stage that runs the tasks (stageRoles: loom's executing). */
export function executingStage(def: PipelineDefinition): StageDefinition | undefined {
  return stageWithRole(def, 'tasks');
}

export function checkExecutingPreconditions(snapshot: SpecSnapshot, def: PipelineDefinition, worktreeOverride?: string): ExecutingPreconditions {
  const out: Diagnostic[] = [];
  const rel = (p: string) => `${snapshot.specDir}/${p}`;
  const error = (file: string, message: string, code: string, line = 1) => out.push(diagnostic(file, message, { line }, 'error', code));

  const stage = executingStage(def);
  if (!stage) error(rel(PIPELINE_STATE_FILE), text('run.noExecutingStage', { pipeline: def.type }), 'no-executing-stage');
  else {
    const reason = planNotApproved(snapshot, def, stage.id);
    if (reason) error(rel(PIPELINE_STATE_FILE), reason, 'plan-not-approved');
  }

  const worktree = worktreeOverride ? (isAbsolute(worktreeOverride) ? worktreeOverride : resolve(snapshot.repoRoot, worktreeOverride)) : findWorktree(snapshot);
  if (!worktree || !isDir(worktree)) {
    error(rel(PIPELINE_STATE_FILE), worktree ? text('run.worktreeMissing', { path: worktree }) : text('run.noWorktree'), 'no-worktree');
  }

  if (!snapshot.files.has('plan.md')) error(rel('plan.md'), text('run.fileMissing', { file: 'plan.md' }), 'missing-plan');
  if (snapshot.tasks.size === 0) error(rel('tasks/'), text('run.noTasks'), 'no-tasks');
  if (!snapshot.requirements)
    error(rel('requirements.json'), text(snapshot.requirementsCondition === 'missing' ? 'run.fileMissing' : 'run.fileUnreadable', { file: 'requirements.json' }), 'missing-requirements');
  if (!snapshot.traceability)
    error(rel('traceability.json'), text(snapshot.traceabilityCondition === 'missing' ? 'run.fileMissing' : 'run.fileUnreadable', { file: 'traceability.json' }), 'missing-traceability');

  // Broken task files or task states would be dispatched or overwritten blindly.
  for (const d of snapshot.diagnostics) {
    if (d.severity === 'error' && (d.file.startsWith(rel('tasks/')) || d.file.startsWith(rel('task-states/')))) out.push(d);
  }

  const tasks = [...snapshot.tasks.values()];
  const plan = planTaskBatches(tasks);
  out.push(...taskDependencyDiagnostics(tasks, plan));
  for (const t of tasks) {
    if (t.owns.length === 0) error(t.file, text('run.taskOwnsNothing', { task: t.id }), 'task-without-owns', t.keyLines.get('owns') ?? 1);
  }
  out.push(...behaviorMappingDiagnostics(snapshot));

  return { ok: !out.some((d) => d.severity === 'error'), diagnostics: out, stage, worktree: worktree && isDir(worktree) ? worktree : undefined };
}

/**
 * Approved means: the spec is in the executing stage (entering it needed the approval), or it
 * stands before it with the last approval gate before executing passed with the user's
 * confirmation. The gate is the last human-approval stage between planning and executing; in a
 * pipeline without one, the last stage there that needs confirmation.
 */
function planNotApproved(snapshot: SpecSnapshot, def: PipelineDefinition, executingId: string): string | undefined {
  const state = snapshot.state;
  if (!state) {
    return snapshot.stateCondition === 'invalid' ? text('run.stateCorrupt', { file: PIPELINE_STATE_FILE }) : text('run.stateMissing', { file: PIPELINE_STATE_FILE });
  }
  const current = state.current_stage;
  if (current === executingId) return undefined;
  if (current === FAILED_STAGE) return text('run.specFailed', { reason: state.failure_reason ?? text('run.noReason') });
  const order = def.stages.map((s) => s.id);
  const at = order.indexOf(current);
  const executingAt = order.indexOf(executingId);
  if (at < 0) return text('run.unknownStage', { stage: current, pipeline: def.type });
  if (at > executingAt) return text('run.pastExecuting', { stage: current });
  const planAt = Math.max(
    0,
    def.stages.findIndex((s) => s.outputs.includes('plan.md')),
  );
  const between = def.stages.slice(planAt, executingAt);
  const gates = between.filter((s) => s.humanApproval);
  const gate = (gates.length ? gates : between.filter((s) => s.confirmation)).pop();
  if (!gate) return at > planAt ? undefined : text('run.planNotWritten', { stage: current });
  const approved = state.stage_history.some((h) => h.stage === gate.id && h.status === 'passed' && h.approval === 'user_confirmed');
  if (approved && at > order.indexOf(gate.id)) return undefined;
  return text('run.planNotApproved', { stage: current, gate: gate.id });
}

/** Each task's `behavior_ids` must be declared in requirements.json and mapped to that task in traceability.json. */
export function behaviorMappingDiagnostics(snapshot: SpecSnapshot): Diagnostic[] {
  const out: Diagnostic[] = [];
  const declared = new Map<string, string>();
  for (const r of snapshot.requirements?.requirements ?? []) for (const b of r.behaviors) declared.set(b.id, r.id);
  const mapped = new Map<string, Set<string>>();
  for (const entry of snapshot.traceability?.requirements ?? []) {
    for (const [behavior, trace] of Object.entries(entry.behaviors ?? {})) {
      // Only an entry under the behavior's own requirement counts, as in the traceability matrix.
      const key = `${entry.id}\u0000${behavior}`;
      const set = mapped.get(key) ?? new Set<string>();
      for (const t of trace.tasks) set.add(normalizeTaskRef(t));
      mapped.set(key, set);
    }
  }
  for (const t of snapshot.tasks.values()) {
    const line = t.keyLines.get('behavior_ids') ?? 1;
    for (const b of t.behavior_ids) {
      if (snapshot.requirements && !declared.has(b)) {
        out.push(diagnostic(t.file, text('run.unknownBehavior', { task: t.id, behavior: b }), { line }, 'error', 'unknown-behavior'));
        continue;
      }
      if (!snapshot.traceability) continue;
      const tasks = mapped.get(`${declared.get(b) ?? b.replace(/-B\d+$/, '')}\u0000${b}`);
      if (!tasks?.has(t.id)) {
        const message = tasks?.size ? text('run.behaviorNotMappedTo', { task: t.id, behavior: b, tasks: [...tasks].join(', ') }) : text('run.behaviorNotMapped', { task: t.id, behavior: b });
        out.push(diagnostic(t.file, message, { line }, 'error', 'behavior-not-mapped'));
      }
    }
  }
  return out;
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
