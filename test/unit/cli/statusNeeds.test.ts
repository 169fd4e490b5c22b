/**
 * `loom-vscode status` answers where a spec stands and what blocks its next step from the files
 * that answer needs (issue 48): a corrupt file the answer does not read is `validate`'s to report
 * (and `--detail full`'s), never a reason the stage goes unanswered; a corrupt file the next move
 * reads makes the move not ready and is named.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { generateRepository } from '../../../bench/generateRepository';
import { main } from '../../../src/cli/main';
import { keepCacheEnv } from '../../support/cacheEnv';

let work: string;
let repo: string;
const restoreCacheEnv = keepCacheEnv();
/** Specs of the bench's generated repository: at executing, with 3 tasks, lacking handoffs/executing.json. */
const EXECUTING = 'specs/2026-11-01+feature-0';
const REVIEW = 'specs/2026-11-02+feature-1';

before(() => {
  work = mkdtempSync(join(tmpdir(), 'loom-status-needs-'));
  repo = join(work, 'repo');
  generateRepository(repo, 2, 3);
  // A spec at code-review-request whose move on is ready: its outputs are there, the files its step requires too.
  const review = join(repo, REVIEW);
  const state = JSON.parse(readFileSync(join(review, 'pipeline.state.json'), 'utf8'));
  state.current_stage = 'code-review-request';
  writeFileSync(join(review, 'pipeline.state.json'), JSON.stringify(state, null, 2));
  writeFileSync(join(review, 'verify-report.md'), '# Verification\n\nverdict: PASS\n');
  writeFileSync(join(review, 'review-request.md'), '# Review request\n\nPlease review the feature.\n');
  writeFileSync(join(review, 'handoffs/code-review-request.json'), JSON.stringify({ stage: 'code-review-request', status: 'done', summary: 'asked', artifacts: [] }, null, 2));
  // requirements.json cut off in both specs: no move from either stage reads it here.
  for (const spec of [EXECUTING, REVIEW]) writeFileSync(join(repo, spec, 'requirements.json'), '{\n  "requirements": [\n    { "id": "REQ-001",\n');
});
after(() => {
  rmSync(work, { recursive: true, force: true });
  restoreCacheEnv();
});

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  process.env.LOOM_VSCODE_CACHE = '0';
  let out = '';
  let err = '';
  const code = await main([...args, '--cwd', repo, '--lang', 'en'], { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

test('a corrupt requirements.json the next move does not read: the stage and a ready move are answered, validate names the file and line, --detail full adds it', async () => {
  const run = await cli('status', '--spec-dir', REVIEW, '--json');
  assert.equal(run.code, 0, run.err);
  const s = JSON.parse(run.out);
  assert.equal(s.stage, 'code-review-request');
  assert.deepEqual(
    s.next.map((n: { to: string; ready: boolean; unmet: string[] }) => [n.to, n.ready, n.unmet]),
    [['review-gate', true, []]],
  );
  assert.deepEqual(s.diagnostics, [], 'no problem of a file the answer did not need');

  const validate = await cli('validate', '--spec-dir', REVIEW, '--json');
  assert.equal(validate.code, 1);
  const problem = JSON.parse(validate.out).diagnostics.find((d: { file: string }) => d.file === `${REVIEW}/requirements.json`);
  assert.ok(problem, validate.out);
  assert.equal(problem.severity, 'error');
  assert.equal(problem.line, 4, 'where the JSON stops');

  const full = JSON.parse((await cli('status', '--spec-dir', REVIEW, '--json', '--detail', 'full')).out);
  assert.deepEqual(full.next, s.next, 'the same move: requirements.json is not among what it reads');
  assert.deepEqual(
    full.diagnostics.map((d: { file: string; line: number }) => [d.file, d.line]),
    [[`${REVIEW}/requirements.json`, 4]],
  );
});

test('a corrupt file the next move reads makes it not ready and is named, with its line', async () => {
  const handoff = join(repo, REVIEW, 'handoffs/code-review-request.json');
  const kept = readFileSync(handoff, 'utf8');
  writeFileSync(handoff, '{\n  "stage": "code-review-request",\n  "status": \n');
  try {
    const s = JSON.parse((await cli('status', '--spec-dir', REVIEW, '--json')).out);
    assert.equal(s.next[0].ready, false);
    assert.ok(
      s.next[0].unmet.some((u: string) => u.startsWith('handoffs/code-review-request.json is not valid JSON at line 4')),
      JSON.stringify(s.next[0].unmet),
    );
    assert.deepEqual(
      s.diagnostics.map((d: { file: string }) => d.file),
      [`${REVIEW}/handoffs/code-review-request.json`],
      'the file the answer needed, not requirements.json',
    );
  } finally {
    writeFileSync(handoff, kept);
  }
});

test('at executing: what blocks the move first, a corrupt task state the answer reads named, the task files and ledgers left to validate', async () => {
  const state = join(repo, EXECUTING, 'task-states/T2.state.json');
  const kept = readFileSync(state, 'utf8');
  writeFileSync(state, '{ "task_id": "T2", "status": ');
  try {
    const run = await cli('status', '--spec-dir', EXECUTING, '--json');
    assert.equal(run.code, 0, run.err);
    const s = JSON.parse(run.out);
    assert.equal(s.stage, 'executing');
    assert.deepEqual(
      s.tasks.map((t: { id: string; status: string }) => [t.id, t.status]),
      [
        ['T1', 'done'],
        ['T2', 'pending'],
        ['T3', 'pending'],
      ],
    );
    assert.equal(s.next[0].ready, false);
    assert.ok(s.next[0].unmet.includes('handoffs/executing.json does not exist'), JSON.stringify(s.next[0].unmet));
    assert.ok(
      s.next[0].unmet.some((u: string) => u.startsWith('task-states/T2.state.json is not valid JSON at line 1')),
      JSON.stringify(s.next[0].unmet),
    );
    assert.deepEqual(
      s.diagnostics.map((d: { file: string }) => d.file),
      [`${EXECUTING}/task-states/T2.state.json`],
    );
    const full = JSON.parse((await cli('status', '--spec-dir', EXECUTING, '--json', '--detail', 'full')).out);
    assert.deepEqual(
      full.diagnostics.map((d: { file: string }) => d.file),
      [`${EXECUTING}/requirements.json`, `${EXECUTING}/task-states/T2.state.json`],
    );
    // Every check of the move, in its own order: the stage's validators too, which read the task files.
    assert.ok(
      full.next[0].unmet.some((u: string) => u.startsWith('task-state-closure:')),
      JSON.stringify(full.next[0].unmet),
    );
  } finally {
    writeFileSync(state, kept);
  }
});

test('--detail takes summary or full, nothing else', async () => {
  const run = await cli('status', '--json', '--detail', 'everything');
  assert.equal(run.code, 2);
  assert.match(run.err, /--detail must be summary or full, not everything/);
  const summary = await cli('status', '--json', '--detail', 'summary');
  assert.deepEqual(summary, await cli('status', '--json'));
});
