import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { loadSpec } from '../../../src/core/specdir/loadSpec';
import { SpecLines } from '../../../src/core/validators/findingSupport';
import { planTemplateProblems } from '../../../src/core/validators/planTemplate';
import { plannedSpec, SPEC, TempRepo } from '../../helpers/tempRepo';

/**
 * loom 3's validate-plan.mjs (validatePlan, checkTaskFile, checkNoPlaceholders,
 * checkBehaviorTaskClosure), which its loom_validate_plan MCP tool runs: the answers below are
 * the ones loom's script gives on the same files.
 */
const repos: TempRepo[] = [];
after(() => repos.forEach((r) => r.dispose()));
const problems = (edit: (r: TempRepo) => void) => {
  const r = new TempRepo('loom-plan-template-');
  repos.push(r);
  plannedSpec(r);
  edit(r);
  const s = loadSpec(r.root, r.path(SPEC));
  return planTemplateProblems(s, new SpecLines(s));
};

/** A task file written from loom's writing-plans template. */
const TASK = `---
owns: [src/login.ts]
reads: []
depends_on: []
requirements: [REQ-001]
behavior_ids: [REQ-001-B01, REQ-001-B02]
complexity: low
---
### Task 1: Login

复杂度: low
依赖: 无
涉及文件: src/login.ts

- [ ] write the failing test
- [ ] implement login

测试: tests/login.test.ts

## 验收映射
- REQ-001-B01, REQ-001-B02
`;
const PLAN = '# Plan\n\n## Task overview\n\n| Task | Title |\n|---|---|\n| [T1](tasks/T1.md) | Login |\n\n## 依赖关系\n\nT1 stands alone.\n';

describe("planTemplateProblems: what loom's validate-plan.mjs says beyond our planning validator", () => {
  it('passes a plan and a task written from loom’s template', () => {
    assert.deepEqual(
      problems((r) => {
        r.write(`${SPEC}/plan.md`, PLAN);
        r.write(`${SPEC}/tasks/T1.md`, TASK);
      }),
      { errors: [], warnings: [] },
    );
  });

  it('names each section a task file lacks, a missing task section, and plan.md without dependencies (a warning)', () => {
    const found = problems(() => {}); // plannedSpec's plan and task are bare
    assert.deepEqual(found.warnings, ['plan.md should describe task dependencies']);
    assert.deepEqual(found.errors, [
      'plan.md must include a Task overview section',
      'tasks/T1.md missing task heading',
      'tasks/T1.md missing dependencies',
      'tasks/T1.md missing affected files',
      'tasks/T1.md missing checklist steps',
      'tasks/T1.md missing test instructions',
      'tasks/T1.md missing acceptance mapping',
    ]);
  });

  it('finds placeholders in any case, a gap in the task numbers, missing frontmatter fields and unmapped behaviors', () => {
    const found = problems((r) => {
      r.write(`${SPEC}/plan.md`, `${PLAN}\nTodo: decide the session length.\n`);
      r.write(`${SPEC}/tasks/T1.md`, TASK.replace('behavior_ids: [REQ-001-B01, REQ-001-B02]\n', 'behavior_ids: [REQ-001-B01]\n').replace('reads: []\n', ''));
      r.write(`${SPEC}/tasks/T3.md`, TASK.replace('requirements: [REQ-001]', 'requirements: [REQ-9]').replace('[REQ-001-B01, REQ-001-B02]', '[REQ-001-B01]'));
    });
    assert.deepEqual(found.errors, [
      'plan.md contains placeholder phrase: Todo',
      'Task files must be contiguous from T1.md; expected T2.md, found T3.md',
      'tasks/T1.md missing frontmatter field reads',
      'tasks/T3.md has invalid requirement id REQ-9',
      'requirements behavior REQ-001-B02 is not mapped to any task',
    ]);
  });
});
