import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { readMemoryStore } from '../../../src/core/memory/memoryStore';
import { SPEC } from '../executing/helpers/executingFixture';
import type { TempRepo } from '../../helpers/tempRepo';
import { GREETING } from '../verification/greetingRepo';
import { runChild, tempFiles } from './helpers/crashLoop';
import { WORKTREE } from './helpers/crashRun';
import { answerReviewOnce, reviewFixture, syncFixture, syncOnce, verificationFixture, verifyOnce } from './helpers/laterStages';

/**
 * Issue #44's fault-injection loop for the stages after the tasks: Verify, Answer Review (its fix
 * run, the fix's checkpoint, the tests re-run, review-response.md) and Sync, each in a real child
 * process killed with SIGKILL at one step (in a command, inside git, or around the rename of an
 * atomic write), then run again by another process (this one). The end is the one of a run never
 * killed, and no lock, temporary file, task worktree or branch is left.
 */
const made: TempRepo[] = [];
after(() => made.forEach((r) => r.dispose()));
const keep = (r: TempRepo) => (made.push(r), r);

// node:test marks its children with NODE_TEST_CONTEXT; the commands verification runs must not inherit it.
delete process.env.NODE_TEST_CONTEXT;

const gitOut = (cwd: string, ...args: string[]) => spawnSync('git', args, { cwd, encoding: 'utf8' }).stdout.trim();
const verdictOf = (file: string) => /^verdict: (\S+)/m.exec(readFileSync(file, 'utf8'))?.[1];

async function killThenAgain(root: string, at: string, job: 'verify' | 'answer' | 'sync', again: () => Promise<unknown>): Promise<void> {
  const killed = await runChild(root, at, job);
  assert.equal(killed.signal, 'SIGKILL', `not killed at ${at}: ${killed.stdout}${killed.stderr}`);
  await again();
}

// ---- Verify ---------------------------------------------------------------------------------

function verified(root: string) {
  const dir = join(root, GREETING);
  const handoff = join(dir, 'handoffs/verification.json');
  return {
    verdict: verdictOf(join(dir, 'verify-report.md')),
    handoff: existsSync(handoff) ? JSON.parse(readFileSync(handoff, 'utf8')).status : undefined,
    stage: JSON.parse(readFileSync(join(dir, 'pipeline.state.json'), 'utf8')).current_stage,
    lock: existsSync(join(dir, '.loom-run.lock')),
    temp: tempFiles(dir),
  };
}

test('Verify killed in its test command, or around the writes of its report: run again, it ends as one never killed', async () => {
  const ref = keep(verificationFixture());
  await verifyOnce(ref.root);
  const reference = verified(ref.root);
  assert.equal(reference.verdict, 'PASS');
  for (const at of ['verify-tests', 'fs:before:verify-report.md', 'fs:after:verify-report.md']) {
    const r = keep(verificationFixture());
    await killThenAgain(r.root, at, 'verify', () => verifyOnce(r.root));
    assert.deepEqual(verified(r.root), reference, at);
  }
});

// ---- Answer Review --------------------------------------------------------------------------

function reviewAnswered(root: string) {
  const dir = join(root, SPEC);
  const feature = join(root, WORKTREE);
  const state = (t: string) => JSON.parse(readFileSync(join(dir, `task-states/${t}.state.json`), 'utf8')).status;
  return {
    verdict: verdictOf(join(dir, 'review-response.md')),
    handoff: existsSync(join(dir, 'handoffs/code-review-response.json')),
    statuses: [state('T1'), state('T2')],
    /** T1, T2, then T1's fix: one commit each. */
    commits: gitOut(feature, 'log', '--format=%s', 'HEAD').split('\n'),
    tree: gitOut(feature, 'rev-parse', 'HEAD^{tree}'),
    status: gitOut(feature, 'status', '--porcelain'),
    worktrees: (gitOut(feature, 'worktree', 'list', '--porcelain').match(/^worktree /gm) ?? []).length,
    taskBranches: gitOut(feature, 'branch', '--list', 'loom-task/*'),
    lock: existsSync(join(dir, '.loom-run.lock')),
    temp: tempFiles(dir),
  };
}

test('Answer Review killed at each step of its fix, its checkpoint, its tests or its response: run again, it ends as one never killed', async () => {
  const ref = keep(await reviewFixture());
  await answerReviewOnce(ref.root);
  const reference = reviewAnswered(ref.root);
  assert.equal(reference.verdict, 'PASS');
  assert.deepEqual(
    reference.commits.map((s) => s.split(':')[0]),
    ['T1', 'T2', 'T1', 'the app with a spec at executing'],
  );
  const steps = [
    'fix-implementer',
    'fix-implementer-tools',
    'fix-reviewer',
    // Mid-write of T1's state as it closes: its temporary file is left behind.
    'fs:before:task-states/T1.state.json:3',
    'git:after:*update-ref -m loom: T1 checkpoint*',
    'review-tests',
    'fs:before:review-response.md',
    'fs:after:review-response.md',
  ];
  for (const at of steps) {
    const r = keep(await reviewFixture());
    await killThenAgain(r.root, at, 'answer', () => answerReviewOnce(r.root));
    assert.deepEqual(reviewAnswered(r.root), reference, at);
  }
});

// ---- Sync -----------------------------------------------------------------------------------

function synced(root: string) {
  return {
    entries: readMemoryStore(root)
      .entries.map((e) => `${e.type}: ${e.content}`)
      .sort(),
    lock: existsSync(join(root, '.loom/memory/.loom-run.lock')),
    temp: [...tempFiles(join(root, '.loom/memory')), ...tempFiles(join(root, GREETING))],
  };
}

test('Sync killed around the write of the memory store: run again, each entry is there once, no lock or temporary file left', async () => {
  const ref = keep(syncFixture());
  await syncOnce(ref.root);
  const reference = synced(ref.root);
  assert.ok(reference.entries.length > 0);
  for (const at of ['fs:before:.loom/memory/store.json', 'fs:after:.loom/memory/store.json']) {
    const r = keep(syncFixture());
    await killThenAgain(r.root, at, 'sync', () => syncOnce(r.root));
    assert.deepEqual(synced(r.root), reference, at);
  }
});
