import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateGuard } from '../../../src/core/pipeline/guards';
import { stalenessDiagnostics } from '../../../src/core/specdir/staleness';
import { writeConvergence } from '../../../src/core/validators/convergence';
import { taskStateClosure } from '../../../src/core/validators/taskStateClosure';
import { state } from '../../helpers/tempRepo';
import { inChinese } from '../../helpers/displayLanguage';
import { load, NOW, plannedSpec, SPEC, withRepo, type TempRepo } from '../validators/validatorFixture';

/** An executed spec whose T2 is still executing. */
function t2Executing(r: TempRepo): void {
  plannedSpec(r, { executed: true });
  r.write(`${SPEC}/task-states/T1.state.json`, { task_id: 'T1', status: 'done', retry_count: 0 });
  r.write(`${SPEC}/task-states/T2.state.json`, { task_id: 'T2', status: 'executing', retry_count: 0 });
}

describe('the core speaks the display language', () => {
  it('guard reasons: a missing file, a confirmation, a failing validator', () => {
    withRepo((r) => {
      t2Executing(r);
      const snapshot = load(r);
      const reasons = (call: Parameters<typeof evaluateGuard>[0]) => evaluateGuard(call, { snapshot }).reasons;
      inChinese(() => {
        assert.deepEqual(reasons({ type: 'fileExists', params: { path: 'test-report.md' } }), ['test-report.md 不存在']);
        assert.deepEqual(reasons({ type: 'confirmed', params: { stage: 'executing' } }), ['只有在你确认 executing 已完成后才能离开它']);
        assert.deepEqual(reasons({ type: 'validatorPasses', params: { name: 'task-state-closure' } }), ['task-state-closure：T2 的状态为 executing，尚未完成']);
      });
      // English stays the default.
      assert.deepEqual(reasons({ type: 'validatorPasses', params: { name: 'task-state-closure' } }), ['task-state-closure: T2 is executing, not done']);
    });
  });

  it('validator findings, with their kind and fix', () => {
    withRepo((r) => {
      t2Executing(r);
      const [finding] = inChinese(() => taskStateClosure(load(r)).findings ?? []);
      assert.equal(finding.kind, 'partial', 'the kind stays loom’s English word');
      assert.equal(finding.message, 'T2 的状态为 executing，尚未完成');
      assert.equal(finding.suggested_fix?.details, '完成 T2');
    });
  });

  it('staleness diagnostics keep their code', () => {
    withRepo((r) => {
      plannedSpec(r);
      const snapshot = load(r);
      const diagnostics = inChinese(() =>
        stalenessDiagnostics(snapshot, {
          handoffs: [],
          approvals: [{ stage: 'planning', approvedAt: NOW, historyIndex: 0, historyIndices: [0], changed: ['spec.md'] }],
          derived: [{ stage: 'planning', output: 'plan.md', input: 'spec.md' }],
        }),
      );
      assert.deepEqual(
        diagnostics.map((d) => [d.code, d.message]),
        [
          ['stale-approval', `planning 的批准（${NOW}）已过期：此后 spec.md 有改动；需要重新批准`],
          ['stale-derivation', 'plan.md（来自 planning）比它所依据的 spec.md 更旧'],
        ],
      );
    });
  });
});

describe('files written for loom follow the spec’s language, not the display language', () => {
  /** plannedSpec(executed) with REQ-001-B02 lacking its evidence, at converge, with spec.md in `specText`. */
  function gapAtConverge(r: TempRepo, specText: string): void {
    plannedSpec(r, { executed: true });
    r.write(`${SPEC}/spec.md`, specText);
    const trace = r.json(`${SPEC}/traceability.json`);
    trace.requirements['REQ-001'].behaviors['REQ-001-B02'] = { tasks: ['T1'], tests: ['tests/login.test.ts'], evidence: [] };
    r.write(`${SPEC}/traceability.json`, trace);
    for (const id of ['T1', 'T2']) r.write(`${SPEC}/task-states/${id}.state.json`, { task_id: id, status: 'done', retry_count: 0 });
    r.write(`${SPEC}/pipeline.state.json`, state('converge'));
  }

  it('a Chinese spec gets a Chinese converge task and plan.md section, in an English UI', () => {
    withRepo((r) => {
      gapAtConverge(r, '# 登录\n\n## 需求\n\n- REQ-001：用户可以用账号和密码登录系统，登录失败时给出明确提示。\n- REQ-002：用户可以退出登录。\n');
      writeConvergence(load(r), { now: NOW });
      const task = r.read(`${SPEC}/tasks/T3.md`);
      assert.match(task, /^# T3：补齐 REQ-001 的收敛缺口$/m);
      assert.match(task, /^第 1 轮收敛发现 REQ-001-B02 缺少实际存在的测试和证据。/m);
      assert.match(task, /^requirements: \[REQ-001\]$/m, 'the frontmatter stays what loom reads');
      assert.match(r.read(`${SPEC}/plan.md`), /## 第 1 轮收敛\n\n- \[T3\]\(tasks\/T3\.md\)：补齐 REQ-001 的收敛缺口：REQ-001-B02\n$/);
    });
  });

  it('an English spec gets an English converge task in a Chinese UI', () => {
    withRepo((r) => {
      gapAtConverge(r, '# Login\n\n## Requirements\n\n- REQ-001: users log in.\n- REQ-002: users log out.\n');
      inChinese(() => writeConvergence(load(r), { now: NOW }));
      assert.match(r.read(`${SPEC}/tasks/T3.md`), /^# T3: Close the convergence gaps of REQ-001$/m);
      assert.match(r.read(`${SPEC}/plan.md`), /## Convergence round 1\n/);
    });
  });
});
