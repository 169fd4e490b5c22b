/**
 * A git repository for `bench: drift-scan`, written with `git fast-import` (seconds, not the
 * minutes 10,000 `git commit`s take): `specs` synced specs, each owning two source files and
 * tracing one test file, and `commits` commits in all, each changing two files of the code. The
 * specs are synced along the first half of the history (each records its baseline, a different
 * commit), so every spec has commits after its baseline, some of which touch its files.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';

const SPEC_STATE = 'pipeline.state.json';

function fastImport(root: string, stream: string, marks?: string): void {
  const r = spawnSync('git', ['fast-import', '--quiet', ...(marks ? [`--export-marks=${marks}`] : [])], { cwd: root, input: stream, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`git fast-import failed: ${r.stderr}`);
}

const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
const specDir = (i: number) => `specs/2026-01-01+s${String(i).padStart(4, '0')}`;
const source = (j: number) => `src/m${j}.ts`;
const testFile = (i: number) => `test/s${i}.test.ts`;

/** A little PRNG, so every run generates the same history. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function commitText(mark: number, message: string, changes: string, from?: string): string {
  return `commit refs/heads/main\nmark :${mark}\ncommitter Bench <bench@example.com> ${1700000000 + mark} +0000\n${data(message)}${from ? `from ${from}\n` : ''}${changes}`;
}

const modify = (path: string, text: string) => `M 100644 inline ${path}\n${data(text)}`;

export interface DriftRepository {
  /** The commit every baseline descends from: the range a bare `git log` is given is HEAD back to it. */
  base: string;
}

export function generateDriftRepository(root: string, specs: number, commits: number): DriftRepository {
  mkdirSync(root, { recursive: true });
  const init = spawnSync('git', ['init', '-q', '-b', 'main'], { cwd: root, encoding: 'utf8' });
  if (init.status !== 0) throw new Error(init.stderr);
  const next = random(47);
  const files = specs * 2;
  const change = (mark: number) => {
    const a = Math.floor(next() * files);
    const b = Math.floor(next() * files);
    return (
      modify(source(a), `export const v = ${mark};\n`) +
      modify(source(b), `export const w = ${mark};\n`) +
      (mark % 50 === 0 ? modify(testFile(Math.floor(next() * specs)), `test('x', () => ${mark});\n`) : '')
    );
  };
  // The first half: the code, the specs' tasks and traces, then a commit per change.
  let out = '';
  let initial = '';
  for (let j = 0; j < files; j++) initial += modify(source(j), `export const v = 0;\n`);
  for (let i = 0; i < specs; i++) {
    initial += modify(testFile(i), `test('s${i}', () => {});\n`);
    initial += modify(`${specDir(i)}/tasks/T1.md`, `---\nowns: [${source(2 * i)}, ${source(2 * i + 1)}]\nreads: []\ndepends_on: []\n---\n# T1\n`);
    initial += modify(
      `${specDir(i)}/traceability.json`,
      JSON.stringify(
        { requirements: { 'REQ-001': { tasks: ['T1'], tests: [], evidence: [], behaviors: { 'REQ-001-B01': { tasks: ['T1'], tests: [`${testFile(i)}#s${i}`], evidence: [] } } } } },
        null,
        2,
      ),
    );
  }
  out += commitText(1, 'init', initial);
  const half = Math.floor(commits / 2);
  for (let m = 2; m <= half; m++) out += commitText(m, `change ${m}`, change(m));
  const marks = `${root}/.git/bench-marks`;
  fastImport(root, out, marks);
  const hashes = new Map<number, string>();
  for (const line of spawnSync('cat', [marks], { encoding: 'utf8' }).stdout.split('\n')) {
    const [mark, hash] = line.split(' ');
    if (mark && hash) hashes.set(Number(mark.slice(1)), hash);
  }
  // Each spec synced at its own commit of the first half (its recorded baseline); the states in one commit.
  const baselineMark = (i: number) => Math.max(1, Math.floor(((i + 1) * half) / (specs + 1)));
  let states = '';
  for (let i = 0; i < specs; i++) {
    const state = {
      spec_dir: specDir(i),
      pipeline_type: 'feature',
      current_stage: 'synced',
      loom_version: '3.0.0',
      started_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-02T00:00:00.000Z',
      current_stage_started_at: '2026-01-02T00:00:00.000Z',
      stage_history: [],
      metadata: { drift_baseline: { commit: hashes.get(baselineMark(i)), recorded_at: '2026-01-02T00:00:00.000Z', source: 'synced' } },
    };
    states += modify(`${specDir(i)}/${SPEC_STATE}`, `${JSON.stringify(state, null, 2)}\n`);
  }
  let rest = commitText(half + 1, 'specs synced', states, hashes.get(half));
  for (let m = half + 2; m <= commits; m++) rest += commitText(m, `change ${m}`, change(m));
  fastImport(root, rest);
  const co = spawnSync('git', ['checkout', '-q', '-f', 'main'], { cwd: root, encoding: 'utf8' });
  if (co.status !== 0) throw new Error(co.stderr);
  return { base: hashes.get(baselineMark(0))! };
}
