import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';

/**
 * Only the state store writes loom's lifecycle files (pipeline.state.json, task-states/,
 * handoffs/, progress.md), and only the spec's actor asks it to: every write of every surface
 * goes through the actor's effects (src/core/pipeline/machineEffects.ts, through the store port
 * of src/core/repository/specPipeline.ts) or its child, the executing run. A module that writes
 * them any other way, or calls the store's writers from outside those, fails this test.
 */

const PROJECT = resolve(__dirname, '../../..');
const STORE = 'src/core/store/stateStore.ts';

/** The store's functions that write loom's files. */
const WRITERS = new Set(['writePipelineState', 'writeTaskState', 'writeHandoffRecord', 'writeLoomHandoff', 'writeHandoffFile', 'refreshLoomHandoff', 'initPipelineState']);

/**
 * Who may call them: the actor's store port, the executing run (the actor's child, its task states
 * and handoffs), and the birth of a new spec, which has no actor before its first state exists.
 */
const MAY_CALL_STORE = new Set(['src/core/repository/specPipeline.ts', 'src/core/executing/specStateStore.ts', 'src/core/executing/taskHandoff.ts', 'src/core/repository/createSpec.ts']);

/** Calls that write a file, whatever module they come from. */
const FILE_WRITES = new Set(['writeFileAtomic', 'writeFileSync', 'writeFile', 'appendFileSync', 'appendFile', 'renameSync', 'rename', 'copyFileSync', 'cpSync', 'createWriteStream']);

/** What names one of loom's lifecycle files in a path expression. */
const LOOM_FILE = /pipeline\.state\.json|PIPELINE_STATE_FILE|progress\.md|task-states|TASK_STATES_DIR|taskStateFile|handoffs\/|HANDOFFS_DIR/;

export interface Violation {
  file: string;
  line: number;
  what: string;
}

/** The writes of loom's files `source` makes outside the store, and its calls of the store's writers when it may not. */
export function violations(file: string, source: string): Violation[] {
  if (file === STORE) return [];
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const out: Violation[] = [];
  const storeImports = new Set<string>();
  for (const s of sf.statements) {
    if (!ts.isImportDeclaration(s) || !ts.isStringLiteral(s.moduleSpecifier) || !/\/store\/stateStore$/.test(s.moduleSpecifier.text)) continue;
    const named = s.importClause?.namedBindings;
    if (named && ts.isNamedImports(named)) for (const el of named.elements) if (WRITERS.has((el.propertyName ?? el.name).text)) storeImports.add(el.name.text);
  }
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
      const line = sf.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      if (name && storeImports.has(name) && !MAY_CALL_STORE.has(file)) out.push({ file, line, what: `calls the state store's ${name} outside the spec's actor` });
      if (name && FILE_WRITES.has(name) && node.arguments[0] && LOOM_FILE.test(node.arguments[0].getText(sf))) out.push({ file, line, what: `writes ${node.arguments[0].getText(sf)} itself` });
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
