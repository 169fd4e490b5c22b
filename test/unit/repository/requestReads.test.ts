import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs, { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { featureBranchName, findWorktree } from '../../../src/core/specdir/worktree';
import { withRequestReads } from '../../../src/core/fs/requestReads';
import { sha256OfFile } from '../../../src/core/fs/sha256';

const SAMPLE = resolve(__dirname, '..', '..', '..', 'sample');
const TAGS = 'specs/2026-11-28+tags';

/** Every readFileSync of a file under `root` while `work` runs, by root-relative path. */
async function readsDuring(root: string, work: () => Promise<unknown>): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  const original = fs.readFileSync;
  fs.readFileSync = function (this: unknown, path: fs.PathOrFileDescriptor, ...rest: unknown[]) {
    const rel = relative(root, String(path));
    if (!rel.startsWith('..')) counts.set(rel, (counts.get(rel) ?? 0) + 1);
    return (original as (...a: unknown[]) => unknown).call(this, path, ...rest);
  } as typeof fs.readFileSync;
  try {
    await work();
  } finally {
    fs.readFileSync = original;
  }
  return counts;
}

test('one move on the bundled sample (tags: Approve, brainstorming being a human-approval gate) reads each file of the spec at most once', async () => {
  // A copy: Advance writes, and the sample stays as committed (sample.test.ts).
  const root = mkdtempSync(join(tmpdir(), 'loom-reads-'));
  try {
    cpSync(SAMPLE, root, { recursive: true });
    const spec = new LoomRepository(root).load().get(TAGS)!;
    let answer: Awaited<ReturnType<typeof spec.request>> | undefined;
    // The spec read before, decided, written and read back: before the funnel, requirements.json
    // was read four times (the facts, the guard's look for placeholders, the approval's
    // fingerprint, the facts again after the write) and the state file and spec.md twice.
    const reads = await readsDuring(root, async () => (answer = await spec.request({ type: 'approve' }, { confirm: true, now: '2026-12-01T00:00:00.000Z' })));
    assert.equal(answer?.kind, 'changed');
    assert.equal(spec.stage, 'detail-expansion', 'the spec took what the request wrote');
    const twice = [...reads].filter(([, n]) => n > 1);
    assert.deepEqual(twice, [], `read more than once: ${twice.map(([f, n]) => `${f} (${n})`).join(', ')}`);
    assert.ok(reads.get(`${TAGS}/requirements.json`), 'the approved files were read (their fingerprints)');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("one Advance at executing reads each file once: the validators' look at spec.md for a line takes the bytes the snapshot read", async () => {
  const root = mkdtempSync(join(tmpdir(), 'loom-reads-'));
  try {
    cpSync(SAMPLE, root, { recursive: true });
    const spec = new LoomRepository(root).load().get('specs/2026-11-25+due-dates')!;
    // Before, requirement-task closure read spec.md again for its line numbers.
    const reads = await readsDuring(root, () => spec.request({ type: 'advance' }, { confirm: true, now: '2026-12-01T00:00:00.000Z' }));
    const twice = [...reads].filter(([, n]) => n > 1);
    assert.deepEqual(twice, [], `read more than once: ${twice.map(([f, n]) => `${f} (${n})`).join(', ')}`);
    assert.equal(reads.get('specs/2026-11-25+due-dates/spec.md'), 1);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("the facts from outside the spec's folder are read once per request too: the worktree git records, the review's digest", async () => {
  const root = mkdtempSync(join(tmpdir(), 'loom-reads-'));
  const checkout = `${root}.wt`;
  try {
    fs.mkdirSync(checkout);
    fs.mkdirSync(join(root, '.git', 'worktrees', 'due'), { recursive: true });
    fs.writeFileSync(join(root, '.git', 'worktrees', 'due', 'HEAD'), `ref: refs/heads/${featureBranchName('2026-11-25+due-dates')}\n`);
    fs.writeFileSync(join(root, '.git', 'worktrees', 'due', 'gitdir'), `${join(checkout, '.git')}\n`);
    fs.writeFileSync(join(root, 'review-feedback.md'), '# review\n');
    const snapshot = { repoRoot: root, name: '2026-11-25+due-dates', state: undefined };
    // The guards, the remedies and the offers each ask; within one request git's records are read once.
    const reads = await readsDuring(root, async () =>
      withRequestReads(() => {
        for (let i = 0; i < 3; i++) {
          assert.equal(findWorktree(snapshot), checkout);
          assert.ok(sha256OfFile(join(root, 'review-feedback.md')));
        }
      }),
    );
    assert.deepEqual(Object.fromEntries(reads), { '.git/worktrees/due/HEAD': 1, '.git/worktrees/due/gitdir': 1, 'review-feedback.md': 1 });
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(checkout, { recursive: true, force: true });
  }
});
