import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../../src/cli/main';
import { BASELINE_KEY } from '../../../src/core/drift/baseline';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { SPEC } from '../../helpers/tempRepo';
import { git } from '../executing/helpers/gitRepos';
import { commit, syncedRepo } from './helpers/driftRepos';

const made: string[] = [];
after(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function cli(root: string, argv: string[], terminal?: boolean) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main([...argv, '--cwd', root], { out: (t) => out.push(t), err: (t) => err.push(t), ...(terminal ? { terminal } : {}) }, { LANG: 'C' });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const stateFile = (root: string) => join(root, SPEC, 'pipeline.state.json');
const readState = (root: string) => JSON.parse(readFileSync(stateFile(root), 'utf8'));

test('drift --accept moves the baseline to HEAD, recording who (git identity) and why; drift is clean after, the rest of the state as it was', async () => {
  const { root, baseline } = syncedRepo(made);
  git(root, 'config', 'user.name', 'Ada Lovelace');
  git(root, 'config', 'user.email', 'ada@example.com');
  const head = commit(root, 'tweak login', { 'src/login.ts': 'v3\n' });
  assert.equal((await cli(root, ['drift'])).code, 1);
  const before = readState(root);
  const r = await cli(root, ['drift', '--accept', '--spec-dir', SPEC, '--reason', 'the new login is what REQ-001 means', '--json'], true);
  assert.equal(r.code, 0, r.err);
  const after_ = readState(root);
  const moved = after_.metadata[BASELINE_KEY];
  assert.equal(moved.commit, head);
  assert.notEqual(moved.commit, baseline);
  assert.equal(moved.source, 'accepted');
  assert.equal(moved.by, 'Ada Lovelace <ada@example.com> (loom-vscode drift --accept)');
  assert.equal(moved.reason, 'the new login is what REQ-001 means');
  assert.match(moved.recorded_at, /^\d{4}-\d\d-\d\dT/);
  assert.deepEqual(JSON.parse(r.out).baseline, moved);
  // Only the baseline changed: the stage, its history and the other metadata are loom's as they were.
  assert.equal(after_.current_stage, before.current_stage);
  assert.deepEqual(after_.stage_history, before.stage_history);
  const drift = await cli(root, ['drift', '--json']);
  assert.equal(drift.code, 0, drift.out);
  assert.deepEqual(JSON.parse(drift.out).specs[0].baseline, { commit: head, source: 'accepted', recorded_at: moved.recorded_at, by: moved.by, reason: moved.reason });
});

test('drift --accept without a reason, or --reason alone, is a usage error and writes nothing', async () => {
  const { root } = syncedRepo(made);
  const before = readFileSync(stateFile(root), 'utf8');
  assert.equal((await cli(root, ['drift', '--accept', '--spec-dir', SPEC])).code, 2);
  assert.equal((await cli(root, ['drift', '--accept', '--spec-dir', SPEC, '--reason', '   '])).code, 2);
  assert.equal((await cli(root, ['drift', '--reason', 'why'])).code, 2);
  assert.equal(readFileSync(stateFile(root), 'utf8'), before);
});

test('Accept as Accurate is refused for a spec that is not synced, and for an agent word under loom.approvals.requirePerson', async () => {
  const { root } = syncedRepo(made);
  const repo = new LoomRepository(root).load();
  const spec = repo.get(SPEC)!;
  const s = readState(root);
  writeFileSync(stateFile(root), `${JSON.stringify({ ...s, current_stage: 'executing' }, null, 2)}\n`);
  repo.reload(spec.snapshot.dir);
  const notSynced = await spec.request({ type: 'moveBaseline', source: 'accepted', by: 'ada', reason: 'fine' });
  assert.equal(notSynced.kind, 'refused');
  assert.equal(notSynced.kind === 'refused' && notSynced.code, 'not-at-sync');
  assert.equal(readState(root).metadata[BASELINE_KEY].source, 'synced');

  writeFileSync(stateFile(root), `${JSON.stringify(s, null, 2)}\n`);
  const settings = join(root, '.vscode');
  const { mkdirSync } = await import('node:fs');
  mkdirSync(settings, { recursive: true });
  writeFileSync(join(settings, 'settings.json'), '{ "loom.approvals.requirePerson": true }\n');
  // No terminal: the CLI's word is whatever runs it (an agent's shell), which the team's rule does not take.
  const r = await cli(root, ['drift', '--accept', '--spec-dir', SPEC, '--reason', 'fine']);
  assert.equal(r.code, 1, r.out);
  assert.match(r.err, /person's act/);
  assert.equal(readState(root).metadata[BASELINE_KEY].source, 'synced');
  assert.equal((await cli(root, ['drift', '--accept', '--spec-dir', SPEC, '--reason', 'fine'], true)).code, 0);
  assert.equal(readState(root).metadata[BASELINE_KEY].source, 'accepted');
});

test('a corrupt state file is reported by drift and by Accept as Accurate, and never written', async () => {
  const { root } = syncedRepo(made);
  commit(root, 'tweak login', { 'src/login.ts': 'v3\n' });
  const corrupt = '{ "current_stage": "synced", \n';
  writeFileSync(stateFile(root), corrupt);
  const accept = await cli(root, ['drift', '--accept', '--spec-dir', SPEC, '--reason', 'fine'], true);
  assert.equal(accept.code, 2, accept.err);
  assert.match(accept.err, /pipeline\.state\.json/);
  const scan = await cli(root, ['drift']);
  assert.equal(scan.code, 2, scan.out);
  assert.ok(scan.out.startsWith(`${SPEC}/pipeline.state.json: warning: `), scan.out);
  assert.equal(readFileSync(stateFile(root), 'utf8'), corrupt);
});
