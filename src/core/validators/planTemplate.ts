import { byTaskNumber } from '../specdir/loadSpec';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { t } from '../messages';
import type { SpecLines } from './findingSupport';
import { requirementIdsInSpec } from './requirementTaskClosure';

/** What loom's validate-plan.mjs says of plan.md and the task files: its errors and its warnings. */
export interface PlanTemplateProblems {
  errors: string[];
  warnings: string[];
}

/** validate-plan.mjs's PLACEHOLDER_RE: these phrases in any case, as whole words. */
const PLACEHOLDER = /\b(TBD|TODO|implement later|fill in details|Similar to Task N|add appropriate error handling)\b/i;

/** The sections validate-plan.mjs's checkTaskFile requires of every task file, in its order. */
const TASK_PARTS = [
  ['heading', /Task\s+\d+|###\s*Task/i],
  ['complexity', /复杂度|Complexity/i],
  ['dependencies', /依赖|Dependencies/i],
  ['files', /涉及文件|Files/i],
  ['checklist', /- \[ \]/],
  ['tests', /测试|test/i],
  ['acceptance', /验收映射|Acceptance Mapping/i],
] as const;
const FRONTMATTER_FIELDS = ['owns', 'reads', 'depends_on', 'requirements', 'complexity'] as const;

/**
 * The checks of loom 3's validate-plan.mjs (what its `loom_validate_plan` MCP tool runs, through
 * validatePlan) that our planning validator does not make: placeholders in plan.md and the tasks,
 * plan.md's task section, task files numbered from T1.md without a gap, each task file's
 * sections (checkTaskFile), its frontmatter fields, requirement and behavior ids, and every
 * behavior of requirements.json named by a task (checkBehaviorTaskClosure). loom's planning gate
 * runs none of them (pipeline-engine.js's planning-artifacts validator reads traceability.json
 * only), so they answer the agent's question "would loom's plan check pass", not the gate's.
 */
export function planTemplateProblems(s: SpecSnapshot, lines: SpecLines): PlanTemplateProblems {
  const errors: string[] = [];
  const warnings: string[] = [];
  const plan = lines.text('plan.md');
  if (plan === undefined) return { errors, warnings }; // the planning validator reports it missing
  const placeholder = (file: string, text: string) => {
    const found = PLACEHOLDER.exec(text)?.[0];
    if (found) errors.push(t('validator.plan.placeholder', { file, phrase: found }));
  };
  placeholder('plan.md', plan);
  if (!/##\s*Task/i.test(plan)) errors.push(t('validator.plan.noTaskSection'));
  if (!/依赖关系|Dependencies/i.test(plan)) warnings.push(t('validator.plan.noDependencies'));

  const tasks = [...s.tasks.values()].sort((a, b) => byTaskNumber(a.id, b.id)); // validate-plan.mjs's taskNumber order
  if (tasks.length === 0) errors.push(t('validator.plan.noTasks'));
  tasks.forEach((task, i) => {
    const name = task.file.slice(task.file.lastIndexOf('/') + 1);
    if (name !== `T${i + 1}.md`) errors.push(t('validator.plan.notContiguous', { expected: `T${i + 1}.md`, found: name }));
  });

  const specText = lines.text('spec.md');
  const specRequirements = new Set(specText === undefined ? [] : requirementIdsInSpec(specText));
  const knownBehaviors = new Set((s.requirements?.requirements ?? []).flatMap((r) => r.behaviors.map((b) => b.id)));
  const mappedBehaviors = new Set<string>();
  for (const task of tasks) {
    const name = task.file.slice(task.file.lastIndexOf('/') + 1);
    const text = lines.text(`tasks/${name}`) ?? '';
    placeholder(`tasks/${name}`, text);
    for (const [part, pattern] of TASK_PARTS) if (!pattern.test(text)) errors.push(t(`validator.plan.taskLacks.${part}`, { name }));
    const frontmatter = /^---\s*\n([\s\S]*?)\n---/m.exec(text)?.[1];
    if (frontmatter === undefined) {
      errors.push(t('validator.plan.noFrontmatter', { name }));
      continue;
    }
    const hasField = (key: string) => new RegExp(`^${key}\\s*:`, 'm').test(frontmatter);
    for (const field of FRONTMATTER_FIELDS) if (!hasField(field)) errors.push(t('validator.plan.noField', { name, field }));
    if (task.requirements.length === 0) errors.push(t('validator.plan.emptyRequirements', { name }));
    for (const id of task.requirements) {
      if (!/^REQ-\d{3,}$/.test(id)) errors.push(t('validator.plan.badRequirement', { name, id }));
      else if (specRequirements.size > 0 && !specRequirements.has(id)) errors.push(t('validator.plan.unknownRequirement', { name, id }));
    }
    if (knownBehaviors.size > 0 && !hasField('behavior_ids')) errors.push(t('validator.plan.noField', { name, field: 'behavior_ids' }));
    if (knownBehaviors.size > 0 && task.behavior_ids.length === 0) errors.push(t('validator.plan.emptyBehaviors', { name }));
    for (const id of task.behavior_ids) {
      mappedBehaviors.add(id);
      if (!/^REQ-\d{3,}-B\d{2,}$/.test(id)) errors.push(t('validator.plan.badBehavior', { name, id }));
      else if (knownBehaviors.size > 0 && !knownBehaviors.has(id)) errors.push(t('validator.plan.unknownBehavior', { name, id }));
    }
  }
  for (const id of knownBehaviors) if (!mappedBehaviors.has(id)) errors.push(t('validator.plan.unmappedBehavior', { id }));
  return { errors, warnings };
}
