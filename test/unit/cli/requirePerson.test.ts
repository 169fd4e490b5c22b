import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { main } from '../../../src/cli/main';
import { SPEC, state, TempRepo } from '../../helpers/tempRepo';

// loom.approvals.requirePerson on the command line: `approve` and `advance --confirm` are the person's
// word only with a terminal attached (stdin a TTY); without one (a script, CI, an agent's shell) the
// actor refuses the word, naming the rule. The history records that it came through the CLI, and whose it was.

const BIN = join(resolve(__dirname, '../../..'), 'bin/loom-vscode.js');
const WORKFLOW = `pipelines:
  feature:
    steps:
      - { id: brainstorming, next: review, outputs: [spec.md] }
      - { id: review, gate: human-approval, next: build, outputs: [plan.md] }
      - { id: build }
`;

function repo(rule: boolean): TempRepo {
  const r = new TempRepo();
  r.write('.loom/workflow.yaml', WORKFLOW);
  r.write(`${SPEC}/spec.md`, '# Spec\n');
  r.write(`${SPEC}/plan.md`, '# Plan\n');
  r.write(`${SPEC}/pipeline.state.json`, state('review'));
  if (rule) r.write('.vscode/settings.json', { loom: { approvals: { requirePerson: true } } });
  return r;
}

async function cli(r: TempRepo, terminal: boolean, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main([...argv, '--cwd', r.root, '--lang', 'en'], { out: (t) => out.push(t), err: (t) => err.push(t), terminal });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const history = (r: TempRepo) => (r.json(`${SPEC}/pipeline.state.json`) as { current_stage: string; stage_history: Record<string, unknown>[] }).stage_history;

test('with the rule, approve without a terminal is refused with the rule named, and nothing is written', async () => {
  const r = repo(true);
  try {
    const before = r.sha256(`${SPEC}/pipeline.state.json`);
    const a = await cli(r, false, 'approve', '--spec-dir', SPEC);
    assert.notEqual(a.code, 0);
    assert.match(a.err, /loom\.approvals\.requirePerson/);
    assert.match(a.err, /through cli, which no person answered/);
    assert.equal(r.sha256(`${SPEC}/pipeline.state.json`), before);
    // The binary itself, its stdin a pipe as under an agent's shell.
    const spawned = spawnSync(process.execPath, [BIN, 'approve', '--spec-dir', SPEC, '--cwd', r.root, '--lang', 'en'], { encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
    assert.notEqual(spawned.status, 0);
    assert.match(spawned.stderr, /loom\.approvals\.requirePerson/);
    assert.equal(r.sha256(`${SPEC}/pipeline.state.json`), before);
  } finally {
    r.dispose();
  }
});

test('with the rule, the person at a terminal approves, and the record names the CLI', async () => {
  const r = repo(true);
  try {
    const a = await cli(r, true, 'approve', '--spec-dir', SPEC);
    assert.equal(a.code, 0, a.err);
    const entry = history(r).at(-1)!;
    assert.equal(entry.stage, 'review');
    assert.equal(entry.approval, 'user_confirmed');
    assert.deepEqual(entry.approved_by, { by: 'person', through: 'cli' });
  } finally {
    r.dispose();
  }
});

test('without the rule, approve without a terminal passes as loom’s run --approve does, recorded as not a person’s terminal', async () => {
  const r = repo(false);
  try {
    const a = await cli(r, false, 'approve', '--spec-dir', SPEC);
    assert.equal(a.code, 0, a.err);
    assert.deepEqual(history(r).at(-1)!.approved_by, { by: 'agent', through: 'cli' });
  } finally {
    r.dispose();
  }
});

test('with the rule, advance --confirm out of an interactive stage needs a terminal too', async () => {
  const r = repo(true);
  try {
    r.write(`${SPEC}/pipeline.state.json`, state('brainstorming'));
    const refused = await cli(r, false, 'advance', '--spec-dir', SPEC, '--confirm');
    assert.notEqual(refused.code, 0);
    assert.match(refused.err, /loom\.approvals\.requirePerson/);
    const moved = await cli(r, true, 'advance', '--spec-dir', SPEC, '--confirm');
    assert.equal(moved.code, 0, moved.err);
    assert.deepEqual(history(r).at(-1)!.approved_by, { by: 'person', through: 'cli' });
  } finally {
    r.dispose();
  }
});
