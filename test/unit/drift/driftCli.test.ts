import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { main } from '../../../src/cli/main';
import { SPEC } from '../../helpers/tempRepo';
import { commit, syncedRepo } from './helpers/driftRepos';

const made: string[] = [];
after(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function cli(root: string, env: Record<string, string | undefined>, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main([...argv, '--cwd', root], { out: (t) => out.push(t), err: (t) => err.push(t) }, { ...env, LANG: 'C' });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

test('drift: exit 0 when every synced spec is true to its code, 1 when one drifted, with a line per file that CI annotates', async () => {
  const { root, baseline } = syncedRepo(made);
  let r = await cli(root, {}, 'drift');
  assert.equal(r.code, 0, r.err);
  assert.ok(r.out.includes(`${SPEC}: true to the code since ${baseline.slice(0, 7)}`), r.out);
  const c = commit(root, 'tweak login', { 'src/login.ts': 'v3\n' });
  r = await cli(root, {}, 'drift');
  assert.equal(r.code, 1);
  assert.equal(r.out.split('\n')[0], `src/login.ts: warning: ${SPEC}: src/login.ts modified by ${c.slice(0, 7)} since ${baseline.slice(0, 7)} (owned by T1)`);
  assert.match(r.out, /1 synced spec drifted \(1 checked\)/);
  r = await cli(root, { GITHUB_ACTIONS: 'true' }, 'drift', '--spec-dir', SPEC);
  assert.equal(r.code, 1);
  assert.equal(r.out.split('\n')[0], `::warning file=src/login.ts,title=Spec drift::${SPEC}: src/login.ts modified by ${c.slice(0, 7)} since ${baseline.slice(0, 7)} (owned by T1)`);
  r = await cli(root, {}, 'drift', '--json');
  assert.equal(r.code, 1);
  const j = JSON.parse(r.out);
  assert.equal(j.drifted, 1);
  assert.deepEqual(
    j.specs.map((s: { specDir: string; status: string; files: { path: string }[] }) => [s.specDir, s.status, s.files.map((f) => f.path)]),
    [[SPEC, 'drifted', ['src/login.ts']]],
  );
});

test('drift: a deleted test names its behavior; a spec-dir that is not a spec is a usage error (exit 2)', async () => {
  const { root } = syncedRepo(made);
  commit(root, 'drop test', { 'test/login.test.ts': null });
  const r = await cli(root, {}, 'drift');
  assert.equal(r.code, 1);
  assert.match(r.out, /test\/login\.test\.ts: warning: .*the test file test\/login\.test\.ts is gone \([0-9a-f]{7}\): REQ-001-B01 no longer have their test/);
  assert.equal((await cli(root, {}, 'drift', '--spec-dir', 'specs/nope')).code, 2);
});
