import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chooseExecutionMode, describeExecutionMode, moduleOf } from '../../../src/core/executing/executionMode';
import { chooseModelTier, mentionsUnknown } from '../../../src/core/executing/dispatch/modelTier';
import { isTestPath } from '../../../src/core/executing/tools/testFiles';

const task = (id: string, owns: string[], extra: Record<string, unknown> = {}) => ({ id, owns, ...extra });
const req = (id: string, types: string[] = ['functional'], categories: string[] = ['happy-path']) => ({ id, types, behaviors: categories.map((category) => ({ category })) });

test('direct mode when no trigger holds', () => {
  const choice = chooseExecutionMode({ tasks: [task('T1', ['src/a.ts', 'tests/a.test.ts']), task('T2', ['src/b.ts'])], requirements: [req('REQ-001')] });
  assert.deepEqual(choice, { mode: 'direct', triggers: [] });
  assert.match(describeExecutionMode(choice), /^direct session/);
});

test("each of loom's triggers turns subagent mode on, and is named", () => {
  const three = chooseExecutionMode({ tasks: [task('T1', ['src/a.ts']), task('T2', ['src/b.ts']), task('T3', ['src/c.ts'])], requirements: [] });
  assert.deepEqual(three.triggers, [{ kind: 'task-count', count: 3 }]);

  const five = chooseExecutionMode({ tasks: [task('T1', ['src/a.ts', 'src/b.ts', 'src/c.ts']), task('T2', ['src/d.ts', 'src/e.ts', 'tests/x.test.ts'])], requirements: [] });
  assert.deepEqual(five.triggers, [{ kind: 'source-files', count: 5 }]);

  const folder = chooseExecutionMode({
    tasks: [task('T1', ['src/auth/'])],
    requirements: [],
    filesUnder: () => ['src/auth/a.ts', 'src/auth/b.ts', 'src/auth/c.ts', 'src/auth/d.ts', 'src/auth/e.ts', 'src/auth/e.test.ts'],
  });
  assert.deepEqual(folder.triggers, [{ kind: 'source-files', count: 5 }]);

  const modules = chooseExecutionMode({ tasks: [task('T1', ['src/auth/login.ts']), task('T2', ['src/billing/pay.ts'])], requirements: [] });
  assert.deepEqual(modules.triggers, [{ kind: 'modules', modules: ['src/auth', 'src/billing'] }]);

  const flagged = chooseExecutionMode({ tasks: [task('T1', ['src/a.ts'], { risk: ['migration'] })], requirements: [] });
  assert.deepEqual(flagged.triggers, [{ kind: 'risk', risk: 'migration', source: 'T1' }]);

  const spec = chooseExecutionMode({ tasks: [task('T1', ['src/a.ts'])], requirements: [req('REQ-001', ['functional'], ['authorization'])], specMetadata: { risks: ['数据一致性'] } });
  assert.deepEqual(spec.triggers, [
    { kind: 'risk', risk: 'data-consistency', source: 'spec' },
    { kind: 'risk', risk: 'permission', source: 'REQ-001' },
  ]);

  const security = chooseExecutionMode({ tasks: [task('T1', ['src/a.ts'])], requirements: [req('REQ-002', ['security'])] });
  assert.equal(security.mode, 'subagent');

  const asked = chooseExecutionMode({ tasks: [task('T1', ['src/a.ts'])], requirements: [], userRequestedSubagents: true });
  assert.deepEqual(asked.triggers, [{ kind: 'user-request' }]);
  assert.match(describeExecutionMode(asked), /you asked for subagents/);
});

test('a task called constructor or __proto__ does not confuse the risk lookup', () => {
  const choice = chooseExecutionMode({ tasks: [task('constructor', ['src/a.ts']), task('__proto__', ['src/b.ts'])], requirements: [] });
  assert.equal(choice.mode, 'direct');
});

test('modules and test paths', () => {
  assert.equal(moduleOf('src/auth/login.ts'), 'src/auth');
  assert.equal(moduleOf('src/index.ts'), 'src');
  assert.equal(moduleOf('server/main.go'), 'server');
  assert.equal(moduleOf('main.go'), '.');
  for (const p of ['tests/a.js', 'test/unit/x.ts', 'src/a.test.ts', 'src/a.spec.js', 'pkg/a_test.go', 'test_a.py', 'src/__tests__/a.js', 'FooTest.java']) assert.ok(isTestPath(p), p);
  for (const p of ['src/a.ts', 'src/testing.ts', 'specs/2026-11-25+x/spec.md', 'src/latest.ts']) assert.ok(!isTestPath(p), p);
});

test("model tiers after loom's signals", () => {
  const low = { complexity: 'low' as const, owns: ['src/a.ts', 'tests/a.test.ts'] };
  assert.equal(chooseModelTier('implementer', low), 'fast');
  assert.equal(chooseModelTier('implementer', { complexity: 'medium', owns: [] }), 'standard');
  assert.equal(chooseModelTier('implementer', { complexity: 'high', owns: [] }), 'strongest');
  assert.equal(chooseModelTier('implementer', { owns: [] }), 'standard', 'unstated complexity');
  assert.equal(chooseModelTier('implementer', { complexity: 'low', owns: ['a', 'b', 'c'] }), 'standard', 'more than 1-2 files');
  assert.equal(chooseModelTier('implementer', low, { staleHandoff: true }), 'standard');
  assert.equal(chooseModelTier('implementer', low, { unknownFacts: true }), 'standard');
  assert.equal(chooseModelTier('implementer', { complexity: 'high', owns: [] }, { staleHandoff: true }), 'strongest', 'never lowered');
  assert.equal(chooseModelTier('reviewer', low), 'strongest');
  assert.equal(chooseModelTier('test-reporter', undefined), 'standard');
  assert.ok(mentionsUnknown('the endpoint is UNKNOWN'));
  assert.ok(mentionsUnknown('时区：未知'));
  assert.ok(!mentionsUnknown('an unknown user gets 401'));
});

test('loom.executing.mode: direct holds over the triggers (still named); subagent is a user request; auto leaves it to the triggers', () => {
  const three = [task('T1', ['src/a.ts']), task('T2', ['src/b.ts']), task('T3', ['src/c.ts'])];
  const direct = chooseExecutionMode({ tasks: three, requirements: [], setting: 'direct' });
  assert.deepEqual(direct, { mode: 'direct', triggers: [{ kind: 'task-count', count: 3 }], overridden: true });
  assert.match(describeExecutionMode(direct), /^direct session: loom\.executing\.mode is direct, although 3 task files/);

  const quiet = chooseExecutionMode({ tasks: [task('T1', ['src/a.ts'])], requirements: [], setting: 'direct' });
  assert.deepEqual(quiet, { mode: 'direct', triggers: [] });

  const subagent = chooseExecutionMode({ tasks: [task('T1', ['src/a.ts'])], requirements: [], setting: 'subagent' });
  assert.deepEqual(subagent, { mode: 'subagent', triggers: [{ kind: 'user-request' }] });

  assert.equal(chooseExecutionMode({ tasks: three, requirements: [], setting: 'auto' }).mode, 'subagent');
});
