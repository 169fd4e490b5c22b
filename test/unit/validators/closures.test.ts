import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { applyTextEdits } from '../../helpers/textEdits';
import { findingFixEdits } from '../../../src/core/validators/findingFix';
import { requirementTaskClosure } from '../../../src/core/validators/requirementTaskClosure';
import { taskStateClosure } from '../../../src/core/validators/taskStateClosure';
import { line, load, plannedSpec, SPEC, taskText, withRepo, type TempRepo } from './validatorFixture';

const done = (id: string) => ({ task_id: id, status: 'done', retry_count: 0 });

describe('task-state-closure', () => {
  it('passes when every task is done, and a spec without task files whatever its states', () => {
    withRepo((r) => {
      plannedSpec(r);
      for (const id of ['T1', 'T2']) r.write(`${SPEC}/task-states/${id}.state.json`, done(id));
      assert.deepEqual([taskStateClosure(load(r)).passed, taskStateClosure(load(r)).findings], [true, []]);
      rmSync(r.path(`${SPEC}/tasks`), { recursive: true });
      r.write(`${SPEC}/task-states/T1.state.json`, { ...done('T1'), status: 'executing' });
      assert.deepEqual([taskStateClosure(load(r)).passed, taskStateClosure(load(r)).findings], [true, []]);
    });
  });

  it('a task without a state is a finding on its task file', () => {
    withRepo((r) => {
      plannedSpec(r);
      r.write(`${SPEC}/task-states/T1.state.json`, done('T1'));
      const result = taskStateClosure(load(r));
      assert.deepEqual(result.findings!.map(line), ['TS-1 error missing tasks/T2.md:1 T2 has no task-states/T2.state.json → : run T2: executing it records its state in task-states/T2.state.json']);
      assert.deepEqual([result.passed, result.problems, result.findings![0].task_id], [false, ['T2 has no task-states/T2.state.json'], 'T2']);
    });
  });

  it('a task not done is a finding on the status line of its state, with its blocker in words (the first fix item, not the heading)', () => {
    withRepo((r) => {
      plannedSpec(r);
      r.write(`${SPEC}/task-states/T1.state.json`, {
        task_id: 'T1',
        retry_count: 1,
        status: 'blocked',
        blocker: '## 修复指令\n\n### 修复项 1\n- 问题：排序修改了传入的数组\n- 文件：src/due/overdue.js\n\n### 修复项 2\n- 问题：没有测试\n',
      });
      r.write(`${SPEC}/task-states/T2.state.json`, { task_id: 'T2', status: 'executing', retry_count: 0 });
      const result = taskStateClosure(load(r));
      assert.deepEqual(result.findings!.map(line), [
        "TS-1 error partial task-states/T1.state.json:4 T1 is blocked, not done (blocker: 排序修改了传入的数组 (and 1 more fix item)) → : settle T1's blocker, then run it again",
        'TS-2 error partial task-states/T2.state.json:3 T2 is executing, not done → : finish T2',
      ]);
      assert.deepEqual(result.problems, ['T1 is blocked, not done (blocker: 排序修改了传入的数组 (and 1 more fix item))', 'T2 is executing, not done']);
    });
  });

  it('a state without its task is unrequested, on its task_id line', () => {
    withRepo((r) => {
      plannedSpec(r);
      for (const id of ['T1', 'T2']) r.write(`${SPEC}/task-states/${id}.state.json`, done(id));
      r.write(`${SPEC}/task-states/T9.state.json`, done('T9'));
      assert.deepEqual(taskStateClosure(load(r)).findings!.map(line), [
        'TS-1 error unrequested task-states/T9.state.json:2 task-states/T9.state.json has no tasks/T9.md → : delete task-states/T9.state.json, or restore tasks/T9.md',
      ]);
    });
  });

  it('a state that does not read is reported as such, on its first error, never as missing', () => {
    withRepo((r) => {
      plannedSpec(r);
      r.write(`${SPEC}/task-states/T1.state.json`, '{\n  "task_id": "T1",\n  "status": \n}\n');
      r.write(`${SPEC}/task-states/T2.state.json`, done('T2'));
      const result = taskStateClosure(load(r));
      assert.deepEqual(result.findings!.map(line), [
        'TS-1 error format task-states/T1.state.json:4 task-states/T1.state.json could not be read (see the Problems it reports) → : repair or delete task-states/T1.state.json; loom never overwrites it',
      ]);
      assert.equal(result.passed, false);
    });
  });
});

describe('requirement-task-closure', () => {
  /** plannedSpec() with T2 no longer naming REQ-002 in its requirements (it keeps REQ-002-B01), changed by `setup`. */
  function unnamed(r: TempRepo, setup: (r: TempRepo) => void = () => {}) {
    plannedSpec(r);
    r.write(`${SPEC}/tasks/T2.md`, taskText({ owns: ['src/logout.ts'], depends_on: ['T1'], requirements: [], behavior_ids: ['REQ-002-B01'] }, 'T2: Logout'));
    setup(r);
    return requirementTaskClosure(load(r));
  }

  it('passes when every REQ of spec.md is named by a task, and without spec.md', () => {
    withRepo((r) => {
      plannedSpec(r);
      assert.deepEqual([requirementTaskClosure(load(r)).passed, requirementTaskClosure(load(r)).findings], [true, []]);
      rmSync(r.path(`${SPEC}/spec.md`));
      r.write(`${SPEC}/tasks/T1.md`, taskText({ owns: ['src/login.ts'], requirements: [] }, 'T1: Login'));
      assert.deepEqual([requirementTaskClosure(load(r)).passed, requirementTaskClosure(load(r)).findings], [true, []]);
    });
  });

  it('a REQ no task names is a finding on its line of spec.md; the task implementing its behaviors is fixed to name it', () => {
    withRepo((r) => {
      const result = unnamed(r);
      assert.deepEqual(result.findings!.map(line), ["RT-1 error missing spec.md:6 REQ-002 appears in spec.md but no task lists it in requirements → update_task: add REQ-002 to T2's requirements"]);
      assert.deepEqual([result.passed, result.problems, result.findings![0].requirement_id], [false, ['REQ-002 appears in spec.md but no task lists it in requirements'], 'REQ-002']);
      const fix = result.fixes!.get('RT-1')!;
      assert.deepEqual(fix, { type: 'task-list', task: 'T2', file: 'tasks/T2.md', key: 'requirements', op: 'add', value: 'REQ-002' });
      const file = `${SPEC}/${fix.file}`;
      r.write(file, applyTextEdits(r.read(file), findingFixEdits(file, r.read(file), fix)));
      assert.match(r.read(file), /^requirements: \[REQ-002\]$/m);
      assert.equal(requirementTaskClosure(load(r)).passed, true);
    });
  });

  it('finds the implementing task through traceability.json, and a REQ only a behavior id names', () => {
    withRepo((r) => {
      const result = unnamed(r, (x) => {
        x.write(`${SPEC}/tasks/T2.md`, taskText({ owns: ['src/logout.ts'], requirements: [], behavior_ids: [] }, 'T2: Logout'));
        x.write(`${SPEC}/spec.md`, '# Login\n\n- REQ-001: users log in.\n\nLogging out is REQ-002-B01.\n');
      });
      assert.deepEqual(result.findings!.map(line), ["RT-1 error missing spec.md:5 REQ-002 appears in spec.md but no task lists it in requirements → update_task: add REQ-002 to T2's requirements"]);
      assert.deepEqual(result.fixes!.get('RT-1'), { type: 'task-list', task: 'T2', file: 'tasks/T2.md', key: 'requirements', op: 'add', value: 'REQ-002' });
    });
  });

  it('offers no fix when no task implements the REQ', () => {
    withRepo((r) => {
      const result = unnamed(r, (x) => x.write(`${SPEC}/spec.md`, '# Login\n\n- REQ-001: users log in.\n- REQ-002: users log out.\n- REQ-003: users reset their password.\n'));
      assert.deepEqual(result.findings!.map(line), [
        "RT-1 error missing spec.md:4 REQ-002 appears in spec.md but no task lists it in requirements → update_task: add REQ-002 to T2's requirements",
        'RT-2 error missing spec.md:5 REQ-003 appears in spec.md but no task lists it in requirements → create_task: create a task for REQ-003, or add REQ-003 to the requirements of the task that implements it',
      ]);
      assert.deepEqual([...result.fixes!.keys()], ['RT-1']);
    });
  });
});

describe('validators asked only for pass or fail (locate: false)', () => {
  it('give the same verdict and findings, without their JSON lines', () => {
    withRepo((r) => {
      plannedSpec(r);
      r.write(`${SPEC}/task-states/T1.state.json`, { ...done('T1'), status: 'blocked', blocker: 'needs a key' });
      const located = taskStateClosure(load(r));
      const fast = taskStateClosure(load(r), { locate: false });
      assert.deepEqual([fast.passed, fast.problems], [located.passed, located.problems]);
      assert.deepEqual(
        located.findings!.map((f) => f.location),
        [
          { file: 'task-states/T1.state.json', line: 3 },
          { file: 'tasks/T2.md', line: 1 },
        ],
      );
      assert.deepEqual(
        fast.findings!.map((f) => f.location),
        [{ file: 'task-states/T1.state.json' }, { file: 'tasks/T2.md', line: 1 }],
      );
    });
  });
});
