import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { describeTestLocations, findTestLocations, testLocationAllows, testLocationsNote, testLocationsOfRun } from '../../../src/core/executing/tools/testWriteScope';
import { TOOL_NAMES, WorkspaceTools } from '../../../src/core/executing/tools/workspaceTools';
import { FakeTestRunner } from './helpers/fakes';
import { harness, implementerDone, PASS, REPORT_PASS, write } from './helpers/executingFixture';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function worktree(files: string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'loom-testscope-'));
  dirs.push(root);
  for (const f of files) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), 'x\n');
  }
  return root;
}

/** A project with a test folder, nested package tests, tests beside the code, and Loom's own folders. */
const PROJECT = [
  'tests/a.test.js',
  'packages/core/test/b.spec.ts',
  'src/c.test.ts',
  'src/c.ts',
  'scripts/build.sh',
  'specs/2026-12-01+x/tasks/T1.md',
  'qa/2026-12-01+y/spec.md',
  '.github/workflows/ci.yml',
  'node_modules/m/test/x.test.js',
];

test("the test locations are the project's test folders and the folders of test files beside the code", () => {
  const loc = findTestLocations(worktree(PROJECT), { excluded: ['specs/2026-12-01+x/', '.loom/'] });
  assert.deepEqual(loc, { folders: ['packages/core/test/', 'tests/'], beside: [{ folder: 'src/', extensions: ['.ts'] }] });
  assert.equal(describeTestLocations(loc), 'files in packages/core/test/, tests/; test files (.ts) in src/');
});

test("the tasks' owned test folders count; a project without tests gets test/", () => {
  const root = worktree(['src/a.js']);
  assert.deepEqual(findTestLocations(root), { folders: ['test/'], beside: [] });
  const loc = testLocationsOfRun(root, [{ owns: ['src/', 'e2e/'] }, { owns: ['lib/d_test.go', '.github/x.test.yml'] }], []);
  assert.deepEqual(loc, { folders: ['e2e/'], beside: [{ folder: 'lib/', extensions: ['.go'] }] });
});

test('the paths of issue #17 are refused: a CI workflow, a deploy script, a manifest named like a test', () => {
  const loc = findTestLocations(worktree(PROJECT));
  const refused = {
    '.github/workflows/release.test.yml': /under \.github, which configures tools/,
    'scripts/deploy-test.sh': /outside the test locations; the test reporter may write files in packages\/core\/test\/, tests\//,
    'package-test.json': /outside the test locations/,
    'tests/package.json': /a tool of the repository runs by its name/,
    'tests/.vscode/tasks.json': /under \.vscode/,
    '.vscode/tasks.json': /under \.vscode/,
    '.husky/pre-commit': /under \.husky/,
    'tests/Makefile': /runs by its name/,
    'src/c.test.js': /outside the test locations/, // src/ holds .ts tests only
    'src/deep/c.test.ts': /outside the test locations/,
    'lib/x.test.ts': /outside the test locations/,
    '.GITHUB/workflows/x.test.yml': /under \.GITHUB/,
    'tests/PACKAGE.JSON': /runs by its name/,
  };
  for (const [path, reason] of Object.entries(refused)) {
    const r = testLocationAllows(loc, path);
    assert.ok(!r.ok, `${path} must be refused`);
    assert.match(r.reason, reason, path);
  }
  for (const path of ['tests/integration/flow.test.js', 'tests/fixtures/data.json', 'packages/core/test/c.spec.ts', 'src/d.test.ts']) {
    assert.deepEqual(testLocationAllows(loc, path), { ok: true }, path);
  }
});

test('through the tools: the test reporter writes nothing outside its locations, and its write tool names them', async () => {
  const root = worktree(PROJECT);
  const t = new WorkspaceTools({
    worktree: root,
    task: 'test-reporter',
    role: 'test-reporter',
    scope: { kind: 'tests-only' },
    protectedPaths: ['specs/2026-12-01+x/'],
    trusted: true,
    testRunner: new FakeTestRunner(),
    testTimeoutMs: 1000,
    log: () => {},
    now: () => '2026-12-01T10:00:00.000Z',
  });
  const write = (path: string) => t.invoke({ callId: 'c', name: TOOL_NAMES.writeFile, input: { path, content: 'x' } }, new AbortController().signal);
  for (const path of ['.github/workflows/release.test.yml', 'scripts/deploy-test.sh', 'package-test.json', 'specs/2026-12-01+x/tasks/T1.test.md']) {
    assert.equal((await write(path)).outcome, 'refused', path);
    assert.equal(existsSync(join(root, path)), false, `${path} was not written`);
  }
  assert.equal((await write('tests/flow.test.js')).outcome, 'ok');
  const spec = t.specs().find((s) => s.name === TOOL_NAMES.writeFile)!;
  assert.match(spec.description, /Only these may be written: files in packages\/core\/test\/, tests\/; test files \(\.ts\) in src\//);
});

test("the test reporter's prompt note names the locations in the spec's language", () => {
  const loc = { folders: ['tests/'], beside: [] };
  assert.match(testLocationsNote(loc, 'en'), /^Write scope: you may write only the project's test locations: files in tests\/\. Hidden folders/);
  assert.match(testLocationsNote(loc, 'zh'), /^写入范围：你只能写入项目的测试位置：files in tests\//);
});

test('in the loop: the test reporter is told its locations, and its write to a CI workflow is refused and shown to it', async () => {
  const h = harness();
  try {
    h.models.script('implementer', ...implementerDone('T1'), ...implementerDone('T2'));
    h.models.script('reviewer', PASS, PASS);
    h.models.script(
      'test-reporter',
      { text: 'Adding a check.', toolCalls: [write('.github/workflows/release.test.yml', 'on: push\n'), write('tests/flow.test.js', "test('flow', () => {});\n")] },
      REPORT_PASS,
    );
    const result = await h.loop.run(new AbortController().signal);
    assert.equal(result.outcome, 'completed', result.message);
    const request = h.transcripts.entries.find((e) => e.role === 'test-reporter' && e.kind === 'request');
    assert.match(String(request?.content), /Write scope: you may write only the project's test locations: files in tests\/\./);
    const results = h.transcripts.entries.filter((e) => e.role === 'test-reporter' && e.kind === 'tool-result').map((e) => e.content as { outcome: string; content: string });
    assert.deepEqual(
      results.map((r) => r.outcome),
      ['refused', 'ok'],
    );
    assert.match(results[0].content, /under \.github, which configures tools/);
    assert.equal(existsSync(join(h.repo.root, '.github')), false);
    assert.equal(existsSync(join(h.repo.root, 'tests', 'flow.test.js')), true);
  } finally {
    h.repo.dispose();
  }
});
