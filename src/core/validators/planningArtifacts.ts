import type { Finding } from '../files/findings';
import { REQUIREMENTS_FILE } from '../files/requirements';
import { normalizeTaskRef } from '../files/taskFile';
import { TRACEABILITY_FILE } from '../files/traceability';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { removeTraceTasks } from './findingFix';
import { FindingList, listResult, SpecLines, tasksNamingBehavior, tasksNamingRequirement, traceRequirementFix, traceTasksFix, unreadableFile } from './findingSupport';
import { requirementIdsInSpec } from './requirementTaskClosure';
import type { ValidatorOptions, ValidatorResult } from './validatorResult';
import { t } from '../messages';

export const PLANNING_ARTIFACTS = 'planning-artifacts';

/**
 * traceability.json exists, and every requirement and behavior maps to at least one task that
 * exists (tests and evidence may still be empty). As loom's validateTraceabilityFile does at
 * planning: each requirement needs tasks of its own, every task reference must name a task file,
 * and with a spec.md, each REQ it names must be traced and a traced REQ it does not name is unknown.
 *
 * Each problem is a finding on traceability.json, on the line of the requirement or behavior it
 * concerns. Where the task files already say which tasks implement it, the finding carries the
 * fix that writes them into traceability.json; a reference to a task file that does not exist is
 * removed the same way.
 */
export function planningArtifacts(s: SpecSnapshot, options: ValidatorOptions = {}): ValidatorResult {
  const list = new FindingList('PA');
  const lines = new SpecLines(s, options.locate !== false);
  for (const [file, condition] of [
    [TRACEABILITY_FILE, s.traceabilityCondition],
    [REQUIREMENTS_FILE, s.requirementsCondition],
  ] as const) {
    const unreadable = unreadableFile(s, file, condition);
    if (unreadable) list.add(unreadable);
  }
  // Shown, never blocking: loom's planning-artifacts gate (pipeline-engine.js) reads no plan.md, only its validate-plan.mjs does.
  for (const f of planOverviewFindings(s, lines, 'warning')) list.add(f);
  if (!s.traceability || !s.requirements) return listResult(PLANNING_ARTIFACTS, list);

  const trace = new Map(s.traceability.requirements.map((r) => [r.id, r]));
  const byId = new Map(s.requirements.requirements.map((r) => [r.id, r]));
  // loom's validateTraceabilityFile knows no applicability: a behavior settled as not-applicable needs its task too.
  const behaviorsOf = (id: string) => byId.get(id)?.behaviors ?? [];

  const missingTasks = (requirement: string, behavior: string | undefined, refs: readonly string[]) => {
    const owner = behavior ?? requirement;
    for (const ref of refs) {
      const id = normalizeTaskRef(ref);
      if (!/^T\d+$/i.test(id) || s.tasks.has(id.toUpperCase()) || s.tasks.has(id)) continue;
      list.add(
        {
          kind: 'missing',
          severity: 'error',
          requirement_id: requirement,
          ...(behavior ? { behavior_id: behavior } : {}),
          artifact: TRACEABILITY_FILE,
          message: t('validator.planning.taskMissing', { owner, ref, task: id.toUpperCase() }),
          location: lines.at(TRACEABILITY_FILE, lines.traceLine(requirement, behavior)),
          suggested_fix: { action: 'update_traceability', details: t('validator.planning.removeRef', { ref, owner, task: id.toUpperCase() }) },
        },
        removeTraceTasks(requirement, behavior, [ref]),
      );
    }
  };

  const inSpec = specRequirementIds(lines);
  const required = [...new Set([...s.requirements.requirements.map((r) => r.id), ...(inSpec ?? [])])];
  for (const id of required) {
    const entry = trace.get(id);
    if (!entry) {
      const implementing = tasksNamingRequirement(s, id);
      list.add(
        {
          kind: 'missing',
          severity: 'error',
          requirement_id: id,
          artifact: TRACEABILITY_FILE,
          message: t('validator.planning.untraced', { id }),
          location: lines.at(TRACEABILITY_FILE, lines.traceLine(id)),
          suggested_fix: {
            action: 'update_traceability',
            details: implementing.length ? t('validator.planning.addTraceWith', { id, tasks: implementing.join(', ') }) : t('validator.planning.addTrace', { id }),
          },
        },
        traceRequirementFix(s, id),
      );
      continue;
    }
    if (entry.tasks.length === 0) {
      const implementing = tasksNamingRequirement(s, id);
      list.add(
        {
          kind: 'missing',
          severity: 'error',
          requirement_id: id,
          artifact: TRACEABILITY_FILE,
          message: t('validator.planning.noTask', { id }),
          location: lines.at(TRACEABILITY_FILE, lines.traceLine(id)),
          suggested_fix: implementing.length
            ? { action: 'update_traceability', details: t('validator.planning.addTasks', { tasks: implementing.join(', '), id }) }
            : { action: 'create_task', details: t('validator.planning.createTask', { id }) },
        },
        traceTasksFix(s, id),
      );
    }
    missingTasks(id, undefined, entry.tasks);
    for (const b of behaviorsOf(id)) {
      const traced = entry.behaviors && Object.hasOwn(entry.behaviors, b.id) ? entry.behaviors[b.id].tasks : [];
      if (traced.length === 0) {
        const implementing = tasksNamingBehavior(s, b.id);
        list.add(
          {
            kind: 'missing',
            severity: 'error',
            requirement_id: id,
            behavior_id: b.id,
            artifact: TRACEABILITY_FILE,
            message: t('validator.planning.noTask', { id: b.id }),
            location: lines.at(TRACEABILITY_FILE, lines.traceLine(id, b.id)),
            suggested_fix: implementing.length
              ? { action: 'update_traceability', details: t('validator.planning.addTasks', { tasks: implementing.join(', '), id: b.id }) }
              : { action: 'update_task', details: t('validator.planning.addBehavior', { id: b.id }) },
          },
          traceTasksFix(s, id, b.id),
        );
      }
      missingTasks(id, b.id, traced);
    }
  }
  if (inSpec) {
    for (const entry of s.traceability.requirements) {
      if (inSpec.includes(entry.id) || byId.has(entry.id)) continue;
      list.add({
        kind: 'unrequested',
        severity: 'error',
        requirement_id: entry.id,
        artifact: TRACEABILITY_FILE,
        message: t('validator.planning.unrequested', { id: entry.id }),
        location: lines.at(TRACEABILITY_FILE, lines.traceLine(entry.id)),
        suggested_fix: { action: 'update_traceability', details: t('validator.planning.removeUnrequested', { id: entry.id }) },
      });
    }
  }
  return listResult(PLANNING_ARTIFACTS, list);
}

/** A finding before FindingList numbers it (its message kept a string: Omit loses keys of the loose finding type). */
type PlanOverviewFinding = Omit<Finding, 'id'> & Pick<Finding, 'message'>;

/**
 * loom's validate-plan.mjs: once plan.md names any task file as `tasks/TN.md` (in any case), it
 * must name every task file that way ("plan.md Task overview does not reference tasks/TN.md").
 * A plan.md that names none that way is left alone, as loom leaves it.
 */
export function planOverviewFindings(s: SpecSnapshot, lines: SpecLines, severity: 'warning' | 'error'): PlanOverviewFinding[] {
  const plan = lines.text('plan.md');
  if (plan === undefined) return [];
  const named = new Set([...plan.matchAll(/tasks\/(T\d+\.md)/gi)].map((m) => m[1].toUpperCase()));
  if (named.size === 0) return [];
  const findings: PlanOverviewFinding[] = [];
  for (const task of s.tasks.values()) {
    const name = task.file.slice(task.file.lastIndexOf('/') + 1);
    if (named.has(name.toUpperCase())) continue;
    findings.push({
      kind: 'missing',
      severity,
      task_id: task.id,
      artifact: 'plan.md',
      message: t('validator.planning.overviewUnreferenced', { name }),
      location: lines.at('plan.md', 1),
      suggested_fix: { details: t('validator.planning.addToOverview', { task: task.id, name }) },
    });
  }
  return findings;
}

const specRequirementIds = (lines: SpecLines): string[] | undefined => {
  const text = lines.text('spec.md');
  return text === undefined ? undefined : requirementIdsInSpec(text);
};
