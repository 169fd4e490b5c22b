import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { TOOL_NAMES, WorkspaceTools, type ToolCallRecord, type WorkspaceToolsOptions } from '../../../src/core/executing/tools/workspaceTools';
import { ownsAllows } from '../../../src/core/executing/tools/worktreeBoundary';
import { FakeTestRunner } from './helpers/fakes';
import { SPEC, harness, implementerDone, PASS, REPORT_PASS, write } from './helpers/executingFixture';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function worktree(): string {
  const root = mkdtempSync(join(tmpdir(), 'loom-tools-'));
  dirs.push(root);
  mkdirSync(join(root, 'src'), { recursive: true });
  mkdirSync(join(root, 'tests'), { recursive: true });
  mkdirSync(join(root, '.git'), { recursive: true });
  writeFileSync(join(root, '.git', 'config'), '[core]\n');
  writeFileSync(join(root, 'src', 'a.js'), 'const a = 1;\nconst b = 2;\n');
  writeFileSync(join(root, 'tests', 'a.test.js'), "test('REQ-001-B01 a', () => {});\n");
  writeFileSync(join(root, 'README.md'), '# readme\n');
  return root;
}

function tools(root: string, extra: Partial<WorkspaceToolsOptions> = {}) {
  const log: ToolCallRecord[] = [];
  const t = new WorkspaceTools({
    worktree: root,
    task: 'T1',
    role: 'implementer',
    scope: { kind: 'owns', owns: ['src/', 'tests/a.test.js'] },
    protectedPaths: ['specs/x/', '.loom/'],
    trusted: true,
    testCommand: 'npm test',
    testRunner: new FakeTestRunner(),
    testTimeoutMs: 1000,
    log: (r) => log.push(r),
    now: () => '2026-11-25T10:00:00.000Z',
    ...extra,
  });
  const call = (name: string, input: unknown) => t.invoke({ callId: 'c', name, input }, new AbortController().signal);
  return { t, log, call };
}

test('reads, lists and searches inside the worktree', async () => {
  const root = worktree();
  const { call, log } = tools(root);
  assert.equal((await call(TOOL_NAMES.readFile, { path: 'src/a.js', start_line: 2, end_line: 2 })).content, 'const b = 2;');
  const listing = (await call(TOOL_NAMES.listDir, {})).content.split('\n');
  assert.deepEqual(listing, ['README.md', 'src/', 'tests/'], '.git is not listed');
  assert.equal((await call(TOOL_NAMES.searchText, { query: 'CONST B' })).content, 'src/a.js:2: const b = 2;');
  assert.equal((await call(TOOL_NAMES.searchText, { query: 'core' })).content, 'no matches', '.git is not searched');
  assert.equal(log.length, 4);
  assert.ok(log.every((r) => r.outcome === 'ok' && r.task === 'T1' && r.role === 'implementer'));
});

test('paths are confined: no "..", no absolute path outside, nothing under .git, no symlink escape', async () => {
  const root = worktree();
  const outside = mkdtempSync(join(tmpdir(), 'loom-outside-'));
  dirs.push(outside);
  writeFileSync(join(outside, 'secret.txt'), 'secret');
  symlinkSync(outside, join(root, 'src', 'link'));
  symlinkSync(join(outside, 'secret.txt'), join(root, 'src', 'secret.js'));
  const { call, log } = tools(root);
  const refusals = [
    await call(TOOL_NAMES.readFile, { path: '../outside.txt' }),
    await call(TOOL_NAMES.readFile, { path: 'src/../../etc/passwd' }),
    await call(TOOL_NAMES.readFile, { path: join(outside, 'secret.txt') }),
    await call(TOOL_NAMES.readFile, { path: '.git/config' }),
    await call(TOOL_NAMES.readFile, { path: 'src/link/secret.txt' }),
    await call(TOOL_NAMES.readFile, { path: 'src/secret.js' }),
    await call(TOOL_NAMES.writeFile, { path: 'src/link/new.js', content: 'x' }),
    await call(TOOL_NAMES.writeFile, { path: '.git/hooks/pre-commit', content: 'x' }),
    await call(TOOL_NAMES.listDir, { path: 'src/link' }),
  ];
  for (const r of refusals) assert.equal(r.outcome, 'refused', r.content);
  assert.match(refusals[0].content, /may not contain "\.\."/);
  assert.match(refusals[3].content, /\.git/);
  assert.match(refusals[4].content, /symbolic link/);
  assert.equal(existsSync(join(outside, 'new.js')), false);
  assert.equal(existsSync(join(root, '.git', 'hooks')), false);
  assert.ok(
    log.every((r) => r.outcome === 'refused'),
    'refusals are logged',
  );
  // An absolute path inside the worktree is fine.
  assert.equal((await call(TOOL_NAMES.readFile, { path: join(root, 'README.md') })).outcome, 'ok');
});

test("writes outside owns are refused with a message the model sees; lifecycle files are Loom's", async () => {
  const root = worktree();
  const { call } = tools(root);
  const outside = await call(TOOL_NAMES.writeFile, { path: 'README.md', content: 'hijack' });
  assert.equal(outside.outcome, 'refused');
  assert.match(outside.content, /^Refused: README.md is outside this task's owns \(src\/, tests\/a.test.js\); write only there, or stop with NEEDS_CONTEXT/);
  assert.equal(readFileSync(join(root, 'README.md'), 'utf8'), '# readme\n');
  assert.equal((await call(TOOL_NAMES.writeFile, { path: 'tests/b.test.js', content: 'x' })).outcome, 'refused', 'tests/a.test.js is owned, tests/b.test.js is not');
  assert.match((await call(TOOL_NAMES.writeFile, { path: 'specs/x/task-states/T1.state.json', content: '{}' })).content, /lifecycle file/);
  const ok = await call(TOOL_NAMES.writeFile, { path: 'src/new/b.js', content: 'module.exports = 2;\n' });
  assert.equal(ok.outcome, 'ok');
  assert.equal(readFileSync(join(root, 'src/new/b.js'), 'utf8'), 'module.exports = 2;\n');
});

test('test files cannot be deleted or emptied; edits must be unambiguous', async () => {
  const root = worktree();
  const { t, call } = tools(root);
  assert.match((await call(TOOL_NAMES.writeFile, { path: 'tests/a.test.js', content: '  \n' })).content, /emptying it counts as deleting it/);
  assert.match((await call(TOOL_NAMES.editFile, { path: 'tests/a.test.js', old_text: "test('REQ-001-B01 a', () => {});\n", new_text: '' })).content, /emptying it counts as deleting it/);
  assert.ok(readFileSync(join(root, 'tests/a.test.js'), 'utf8').includes('REQ-001-B01'));
  assert.match((await call(TOOL_NAMES.editFile, { path: 'src/a.js', old_text: 'const', new_text: 'let' })).content, /more than once/);
  assert.equal((await call(TOOL_NAMES.editFile, { path: 'src/a.js', old_text: 'const b', new_text: 'let b' })).outcome, 'ok');
  assert.equal(readFileSync(join(root, 'src/a.js'), 'utf8'), 'const a = 1;\nlet b = 2;\n');
  assert.deepEqual([...t.written], ['src/a.js']);
  assert.ok(!t.specs().some((s) => /delete|remove/i.test(s.name)), 'no tool deletes files');
});

test('the reviewer gets no write tools; the test reporter may write its test locations only', async () => {
  const root = worktree();
  const reviewer = tools(root, { role: 'reviewer', scope: { kind: 'none' } });
  assert.deepEqual(
    reviewer.t.specs().map((s) => s.name),
    [TOOL_NAMES.readFile, TOOL_NAMES.listDir, TOOL_NAMES.searchText, TOOL_NAMES.runTests],
  );
  assert.match((await reviewer.call(TOOL_NAMES.writeFile, { path: 'src/a.js', content: 'x' })).content, /the reviewer may not change files/);
  const reporter = tools(root, { role: 'test-reporter', scope: { kind: 'tests-only' } });
  assert.equal((await reporter.call(TOOL_NAMES.writeFile, { path: 'tests/integration/flow.test.js', content: 'x' })).outcome, 'ok');
  assert.match((await reporter.call(TOOL_NAMES.writeFile, { path: 'src/a.js', content: 'x' })).content, /src\/a\.js is outside the test locations; the test reporter may write files in tests\//);
  assert.match(reporter.t.specs().find((s) => s.name === TOOL_NAMES.writeFile)!.description, /Only these may be written: files in tests\/\./);
});

test('running the test command needs a trusted workspace', async () => {
  const root = worktree();
  const untrusted = tools(root, { trusted: false });
  assert.match((await untrusted.call(TOOL_NAMES.runTests, {})).content, /trusted workspace/);
  const trusted = tools(root);
  assert.match((await trusted.call(TOOL_NAMES.runTests, {})).content, /^npm test: exit code 0\nok 3 tests passed/);
  const none = tools(root, { testCommand: undefined });
  assert.ok(!none.t.specs().some((s) => s.name === TOOL_NAMES.runTests));
});

test('bad input and unknown tools are refused, not thrown', async () => {
  const root = worktree();
  const { call } = tools(root);
  assert.match((await call(TOOL_NAMES.readFile, { file: 'x' })).content, /invalid input: path/);
  assert.match((await call('rm_rf', {})).content, /no tool named rm_rf/);
  assert.match((await call(TOOL_NAMES.searchText, { query: '(', regex: true })).content, /does not compile/);
});

test('owns: a folder covers what is under it, not its namesakes', () => {
  assert.equal(ownsAllows(['src/a'], 'src/a/b.ts'), true);
  assert.equal(ownsAllows(['src/a/'], 'src/a'), true);
  assert.equal(ownsAllows(['src/a'], 'src/ab.ts'), false);
  assert.equal(ownsAllows(['src\\a\\'], 'src/a/x'), true);
  assert.equal(ownsAllows(['./'], 'anything'), true);
  assert.equal(ownsAllows([], 'src/a.ts'), false);
});

test('in the loop: a tool call that tries to escape the worktree or write outside owns is refused, logged and shown to the model', async () => {
  const h = harness();
  dirs.push(h.repo.root);
  const escapes = {
    text: 'Trying a few things.',
    toolCalls: [
      { name: TOOL_NAMES.readFile, input: { path: '../../etc/passwd' } },
      write('src/app.js', 'module.exports = { hacked: true };\n'),
      write(`${SPEC}/task-states/T1.state.json`, '{"task_id":"T1","status":"done"}'),
      write('.git/config', '[core]\n'),
    ],
  };
  const [tools1, final1] = implementerDone('T1');
  h.models.script('implementer', escapes, tools1, final1, ...implementerDone('T2'));
  h.models.script('reviewer', PASS, PASS);
  h.models.script('test-reporter', REPORT_PASS);
  const result = await h.loop.run(new AbortController().signal);
  assert.equal(result.outcome, 'completed', result.message);
  const afterEscapes = h.models.requestsOf('implementer')[1];
  const results = afterEscapes.messages.filter((m) => m.role === 'tool').map((m) => (m as { content: string }).content);
  assert.equal(results.length, 4);
  assert.ok(
    results.every((r) => r.startsWith('Refused: ')),
    results.join('\n'),
  );
  assert.match(results[1], /outside this task's owns/);
  assert.match(results[2], /lifecycle file/);
  assert.equal(h.repo.read('src/app.js'), 'module.exports = {};\n');
  assert.equal(h.repo.json(`${SPEC}/task-states/T1.state.json`).last_reviewer_result, 'PASS', 'the state was written by the core, not the model');
  const calls = h.transcripts.entries.filter((e) => e.kind === 'tool-result' && e.task === 'T1');
  assert.ok(calls.filter((e) => (e.content as { outcome: string }).outcome === 'refused').length >= 4, 'every tool call is in the transcript');
});
