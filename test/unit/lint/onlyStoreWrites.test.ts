import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';

/**
 * Only the state store (src/core/store/stateStore.ts and specFiles.ts) writes loom's lifecycle
 * files (pipeline.state.json, task-states/, handoffs/, progress.md) and the reports
 * (artifact-analysis.json and its overrides, convergence-report.json, findings/omission-hunter.json,
 * verify-report.md, review-response.md, test-report.md), and only the spec's actor asks it:
 * every write of every surface goes through the actor's effects (src/core/pipeline/effects/,
 * through the store port of src/core/repository/specPipeline.ts) or its child, the
 * executing run, for the run's own files. pipeline.state.json is the actor's alone: what a run
 * keeps there (its mode, tokens, breakers, the test reporter's progress) is the actor's effect too
 * (pipeline/effects/runRecord.ts), through the same store port. The validators work out their
 * reports and hand them to the store. A module that writes them any other way (the path in the
 * call, or in the variable the call names), calls or re-exports the writers from outside those,
 * fails this test.
 */

const PROJECT = resolve(__dirname, '../../..');
const STORE = new Set(['src/core/store/stateStore.ts', 'src/core/store/specFiles.ts']);

/** The modules that work out the validators' reports, each its own, and hand them to the store. */
const REPORT_WRITERS = new Map([
  ['src/core/validators/artifactAnalysis.ts', 'writeArtifactAnalysis'],
  ['src/core/validators/convergence.ts', 'writeConvergence'],
  ['src/core/validators/omissionHunt.ts', 'writeOmissionHunt'],
]);

/**
 * Who may call the report writers: the actor's effects (analyzeArtifacts, converge, huntOmissions;
 * Check Stage through stageCheck.ts, which only its effect calls; the stage's reports loom's
 * `run --advance` writes before it decides, the move's first effect).
 */
const MAY_CALL_REPORTS = new Set(['src/core/pipeline/effects/validatorReports.ts', 'src/core/validators/stageCheck.ts', 'src/core/pipeline/effects/stageReports.ts']);

/** The store's functions that write loom's files. */
const WRITERS = new Set([
  'writePipelineState',
  'writeTaskState',
  'putBackTaskState',
  'writeHandoffRecord',
  'writeLoomHandoff',
  'writeHandoffFile',
  'refreshLoomHandoff',
  'initPipelineState',
  'writeSpecFiles',
]);

/** The store's writers of pipeline.state.json: the actor's own record, which only its store port writes (never the executing run itself). */
const STATE_WRITERS = new Set(['writePipelineState', 'initPipelineState']);
const MAY_WRITE_STATE = new Set(['src/core/repository/specPipeline.ts']);

/**
 * Who may call them: the actor's store port and the executing run (the actor's child, its task
 * states, handoffs and test report; not the spec's state, STATE_WRITERS). A new spec's first state is its actor's effect too
 * (initState). The validators' own writers hand their reports to the store when no writer is
 * given (only the actor's effects call them, MAY_CALL_REPORTS, and they give the store port's).
 */
const MAY_CALL_STORE = new Set([
  'src/core/repository/specPipeline.ts',
  'src/core/executing/specStateStore.ts',
  'src/core/executing/taskHandoff.ts',
  'src/core/executing/evidence/testReport.ts',
  ...REPORT_WRITERS.keys(),
]);

/** Calls that write a file, whatever module they come from. */
const FILE_WRITES = new Set(['writeFileAtomic', 'writeFileSync', 'writeFile', 'appendFileSync', 'appendFile', 'renameSync', 'rename', 'copyFileSync', 'cpSync', 'createWriteStream']);

/** What names one of loom's lifecycle files in a path expression. */
const LOOM_FILE = /pipeline\.state\.json|PIPELINE_STATE_FILE|progress\.md|task-states|TASK_STATES_DIR|taskStateFile|handoffs\/|HANDOFFS_DIR/;

/** What names one of the validators' reports in a path expression. */
const REPORT_FILE =
  /artifact-analysis|ARTIFACT_ANALYSIS_FILE|ANALYSIS_OVERRIDES_FILE|convergence-report|CONVERGENCE_REPORT_FILE|omission-hunter|OMISSION_HUNTER_FILE|verify-report|VERIFY_REPORT_FILE|review-response|REVIEW_RESPONSE_FILE|test-report\.md|TEST_REPORT_FILE/;

export interface Violation {
  file: string;
  line: number;
  what: string;
}

/** The writes of loom's files `source` makes outside the store, and its calls of the store's writers when it may not. */
export function violations(file: string, source: string): Violation[] {
  if (STORE.has(file)) return [];
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const out: Violation[] = [];
  /** The store's writers as this module names them, with their own names. */
  const storeImports = new Map<string, string>();
  const reportImports = new Set<string>();
  const lineOf = (node: ts.Node) => sf.getLineAndCharacterOfPosition(node.getStart()).line + 1;
  const reportWriters = new Set(REPORT_WRITERS.values());
  for (const s of sf.statements) {
    if (!(ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) || !s.moduleSpecifier || !ts.isStringLiteral(s.moduleSpecifier)) continue;
    const from = s.moduleSpecifier.text;
    // A port that hands a report writer on lets any surface write the report: only the actor may hold it.
    if (ts.isExportDeclaration(s) && s.exportClause && ts.isNamedExports(s.exportClause)) {
      for (const el of s.exportClause.elements)
        if (reportWriters.has((el.propertyName ?? el.name).text)) out.push({ file, line: lineOf(el), what: `hands on the report writer ${(el.propertyName ?? el.name).text}` });
      continue;
    }
    if (!ts.isImportDeclaration(s)) continue;
    const named = s.importClause?.namedBindings;
    if (!named || !ts.isNamedImports(named)) continue;
    for (const el of named.elements) {
      const original = (el.propertyName ?? el.name).text;
      if (/\/store\/(stateStore|specFiles)$/.test(from) && WRITERS.has(original)) storeImports.set(el.name.text, original);
      // Through any module (a port re-exports): the name is the writer's.
      if (reportWriters.has(original)) reportImports.add(el.name.text);
    }
  }
  // What each variable of the module is set to: a write that names a variable names its path.
  const values = new Map<string, string>();
  const collect = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) values.set(node.name.text, node.initializer.getText(sf));
    ts.forEachChild(node, collect);
  };
  collect(sf);
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
      const line = lineOf(node);
      const first = node.arguments[0];
      const target = first && (ts.isIdentifier(first) ? `${first.text} = ${values.get(first.text) ?? ''}` : first.getText(sf));
      const writer = name === undefined ? undefined : storeImports.get(name);
      if (writer && !MAY_CALL_STORE.has(file)) out.push({ file, line, what: `calls the state store's ${name} outside the spec's actor` });
      else if (writer && STATE_WRITERS.has(writer) && !MAY_WRITE_STATE.has(file))
        out.push({ file, line, what: `writes pipeline.state.json through the store's ${name} around the actor's store port` });
      if (name && reportImports.has(name) && !MAY_CALL_REPORTS.has(file)) out.push({ file, line, what: `calls the report writer ${name} outside the spec's actor` });
      if (name && FILE_WRITES.has(name) && target && LOOM_FILE.test(target)) out.push({ file, line, what: `writes ${target} itself` });
      if (name && FILE_WRITES.has(name) && target && REPORT_FILE.test(target)) out.push({ file, line, what: `writes ${target} itself` });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(p));
    else if (e.name.endsWith('.ts')) out.push(p);
  }
  return out;
}

test("no module but the state store writes loom's lifecycle files, and only the spec's actor calls the store", () => {
  const found = sources(join(PROJECT, 'src')).flatMap((abs) => violations(relative(PROJECT, abs).split('\\').join('/'), readFileSync(abs, 'utf8')));
  assert.deepEqual(found, [], found.map((v) => `${v.file}:${v.line}: ${v.what}`).join('\n'));
});

test('the check finds a surface that writes pipeline.state.json itself, or calls the store around the actor', () => {
  const cli = [
    "import { writeFileSync } from 'node:fs';",
    "import { writeTaskState } from '../core/store/stateStore';",
    'export function sneak(dir: string, s: unknown, snap: never) {',
    "  writeFileSync(join(dir, 'pipeline.state.json'), JSON.stringify(s));",
    "  writeTaskState(snap, s as never, 'now');",
    '}',
  ].join('\n');
  assert.deepEqual(
    violations('src/cli/sneak.ts', cli).map((v) => [v.line, v.what]),
    [
      [4, "writes join(dir, 'pipeline.state.json') itself"],
      [5, "calls the state store's writeTaskState outside the spec's actor"],
    ],
  );
  // The same call from the actor's store port is the one allowed way.
  assert.deepEqual(
    violations('src/core/repository/specPipeline.ts', cli).map((v) => v.line),
    [4],
  );
});

test('the check finds a surface that writes a validator report itself, calls its writer around the actor, or hands the writer on', () => {
  const mcp = [
    "import { writeFileAtomic } from '../core/fs/atomicWrite';",
    "import { writeConvergence as converge } from '../core/port/validators';",
    "export { writeOmissionHunt } from '../core/validators/omissionHunt';",
    'export function sneak(dir: string, snap: never) {',
    "  writeFileAtomic(join(dir, ARTIFACT_ANALYSIS_FILE), '{}');",
    '  converge(snap);',
    '}',
  ].join('\n');
  assert.deepEqual(
    violations('src/mcp/tools/sneak.ts', mcp).map((v) => [v.line, v.what]),
    [
      [3, 'hands on the report writer writeOmissionHunt'],
      [5, 'writes join(dir, ARTIFACT_ANALYSIS_FILE) itself'],
      [6, "calls the report writer converge outside the spec's actor"],
    ],
  );
  // The actor's effects call the writer; no module but the store writes the report, the writer's own neither.
  assert.deepEqual(
    violations('src/core/pipeline/effects/validatorReports.ts', mcp).map((v) => v.line),
    [3, 5],
  );
  assert.deepEqual(
    violations('src/core/validators/artifactAnalysis.ts', mcp).map((v) => v.line),
    [3, 5, 6],
  );
  assert.deepEqual(violations('src/core/store/specFiles.ts', mcp), []);
});

test("the check finds an effect that writes a job's report itself, or a lifecycle file through a variable", () => {
  // What recordVerification did before it wrote through the store port.
  const effect = [
    "import { writeFileAtomic } from '../fs/atomicWrite';",
    'export function record(fresh: { dir: string }, text: string, task: string) {',
    '  writeFileAtomic(join(fresh.dir, VERIFY_REPORT_FILE), text);',
    '  const path = join(fresh.dir, taskStateFile(task));',
    '  writeFileAtomic(path, text);',
    '}',
  ].join('\n');
  assert.deepEqual(
    violations('src/core/pipeline/effects/validatorReports.ts', effect).map((v) => v.line),
    [3, 5],
  );
});

test("the check finds the executing run writing the spec's state itself, as SpecStateStore.updateMetadata did before the run's metadata was the actor's effect", () => {
  // SpecStateStore.updateMetadata as it was (issue 45): the run's mode, tokens and breakers written around the actor.
  const run = [
    "import { putBackTaskState as putBack, writePipelineState, writeTaskState } from '../store/stateStore';",
    'export class SpecStateStore {',
    '  updateMetadata(patch: Record<string, unknown>): void {',
    '    const snapshot = this.snapshot();',
    '    writePipelineState(snapshot, { ...snapshot.state, metadata: patch }, this.now());',
    '  }',
    '  writeTask(next: never) {',
    '    writeTaskState(this.snapshot(), next, this.now());',
    "    putBack(this.snapshot(), 'T1', undefined, this.now());",
    '  }',
    '}',
  ].join('\n');
  assert.deepEqual(
    violations('src/core/executing/specStateStore.ts', run).map((v) => [v.line, v.what]),
    [[5, "writes pipeline.state.json through the store's writePipelineState around the actor's store port"]],
  );
  // Its own files (task states) are the run's; from a surface every one of those calls is refused.
  assert.deepEqual(
    violations('src/host/sneak.ts', run).map((v) => v.line),
    [5, 8, 9],
  );
  // The actor's store port writes the state for every effect, the run's included.
  assert.deepEqual(violations('src/core/repository/specPipeline.ts', run), []);
});
