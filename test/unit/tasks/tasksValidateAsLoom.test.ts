import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { main } from '../../../src/cli/main';
import { SPEC, TempRepo } from '../../helpers/tempRepo';

/**
 * `tasks --validate` as loom 3's `loom tasks --validate` decides it (src/commands/tasks.js:
 * detectConflicts over every pair of tasks, whatever depends_on says; exit 1 on any conflict or a
 * task without owns). Task files are written as loom's planning writes them: inline lists.
 */
async function validate(r: TempRepo) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['tasks', '--cwd', r.root, '--spec-dir', SPEC, '--validate'], { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const task = (id: string, owns: string, depends: string, reads = '') => `---\nowns: [${owns}]\nreads: [${reads}]\ndepends_on: [${depends}]\n---\n# ${id}: work\nDo the work of ${id}.\n`;

describe('tasks --validate as loom tasks --validate', () => {
  it('reports an overlap between tasks ordered by depends_on and exits 1, as loom does', async () => {
    // loom 3 on these files: "✗ 1 file ownership conflict(s) detected: T1 ↔ T2: "src/a.js" ↔ "src/a.js"", exit 1.
    const r = new TempRepo();
    r.write(`${SPEC}/tasks/T1.md`, task('T1', 'src/a.js', ''));
    r.write(`${SPEC}/tasks/T2.md`, task('T2', 'src/a.js', 'T1'));
    const { code, err } = await validate(r);
    assert.equal(code, 1);
    assert.match(err, /T1 and T2 overlap on src\/a\.js: depends_on makes them run one after the other, but loom tasks --validate rejects every overlapping pair/);
    assert.match(err, /T2 and T1 overlap on src\/a\.js/);
    r.dispose();
  });

  it('reports every overlapping pair, ordered or not, read against owned too', async () => {
    const r = new TempRepo();
    r.write(`${SPEC}/tasks/T1.md`, task('T1', 'src/', ''));
    r.write(`${SPEC}/tasks/T2.md`, task('T2', 'src/b.js', 'T1'));
    r.write(`${SPEC}/tasks/T3.md`, task('T3', 'lib/c.js', '', 'src/b.js'));
    const { code, err } = await validate(r);
    assert.equal(code, 1);
    const pairs = [...err.matchAll(/^\S+:\d+:\d+: \w+: (T\d) and (T\d) overlap/gm)].map((m) => `${m[1]}-${m[2]}`).sort();
    assert.deepEqual(pairs, ['T1-T2', 'T1-T3', 'T2-T1', 'T2-T3', 'T3-T1', 'T3-T2']);
    r.dispose();
  });

  it('passes tasks that share nothing, as loom does ("No file conflicts detected")', async () => {
    const r = new TempRepo();
    r.write(`${SPEC}/tasks/T1.md`, task('T1', 'src/a.js', ''));
    r.write(`${SPEC}/tasks/T2.md`, task('T2', 'src/b.js', 'T1', 'src/c.js'));
    const { code, out } = await validate(r);
    assert.equal(code, 0);
    assert.match(out, /2 tasks valid/);
    r.dispose();
  });
});
