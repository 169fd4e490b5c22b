import assert from 'node:assert/strict';
import { test } from 'node:test';
import { main } from '../../../src/cli/main';
import { featureMemoryEntries, syncFeatureMemory } from '../../../src/core/memory/featureMemory';
import { addMemoryEntry, readMemoryStore } from '../../../src/core/memory/memoryStore';
import { handOnPlan, shellWord } from '../../../src/core/pipelineRun/branchHandOn';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { request } from '../../../src/core/port/request';
import { setDisplayLanguage } from '../../../src/core/messages';
import { GREETING, greetingAtVerification } from '../verification/greetingRepo';

// Synced by Loom (issue 34, item 3), as loom's loom-index-update skill (Step 3) does it: the
// feature's decisions (type 决策) and pitfalls (type 踩坑) into .loom/memory/store.json through
// the same writer as loom_add_memory (loom 3's memory-store addEntry: newest first, at most 50),
// and the branch handed on as loom-finishing-a-development-branch does (push, pull request).

const NOW = '2026-12-04T10:00:00.000Z';

function syncedGreeting() {
  const r = greetingAtVerification();
  r.write(
    `${GREETING}/plan.md`,
    '# Plan\n\n## Decisions\n\n- Greeting text lives in `src/greet.js`, not in config\n- Names are not trimmed\n  (callers trim them)\n\n## Tasks\n\n- T1 greet by name\n',
  );
  r.write(`${GREETING}/review-response.md`, '# Review response\n\n## 踩坑\n\n1. `node --test` inherits NODE_TEST_CONTEXT from a parent runner\n\n## Other\n\n- not remembered\n');
  r.write(`${GREETING}/task-states/T1.state.json`, { ...(r.json(`${GREETING}/task-states/T1.state.json`) as object), retry_count: 2, blocker: 'the test runner hung' });
  r.write(`${GREETING}/pipeline.state.json`, { ...(r.json(`${GREETING}/pipeline.state.json`) as object), current_stage: 'synced' });
  return r;
}

test('a feature’s decisions and pitfalls become memory entries, tagged with the feature and pointing at their file', () => {
  const r = syncedGreeting();
  try {
    const snapshot = new LoomRepository(r.root).get(GREETING)!.snapshot;
    const entries = featureMemoryEntries(snapshot, 'en');
    assert.deepEqual(
      entries.map((e) => [e.type, e.content, e.context]),
      [
        ['决策', 'greeting: Greeting text lives in `src/greet.js`, not in config', `${GREETING}/plan.md`],
        ['决策', 'greeting: Names are not trimmed (callers trim them)', `${GREETING}/plan.md`],
        ['踩坑', 'greeting: `node --test` inherits NODE_TEST_CONTEXT from a parent runner', `${GREETING}/review-response.md`],
        ['踩坑', 'greeting: task T1 (Greet by name) needed 2 retries before its review passed', `${GREETING}/task-states/T1.state.json`],
        ['踩坑', 'greeting: task T1 (Greet by name) was blocked: the test runner hung', `${GREETING}/task-states/T1.state.json`],
      ],
    );
    assert.deepEqual(entries[0].tags, ['greeting', 'loom-sync']);
  } finally {
    r.dispose();
  }
});

test('the sync writes through loom_add_memory’s writer: existing entries kept, a second sync adds nothing', () => {
  const r = syncedGreeting();
  try {
    addMemoryEntry(r.root, { type: '偏好', content: 'tabs, not spaces', context: null }, '2026-12-01T00:00:00.000Z', 1000);
    const snapshot = new LoomRepository(r.root).get(GREETING)!.snapshot;
    const first = syncFeatureMemory(snapshot, 'en', NOW, 1000);
    assert.equal(first.added.length, 5);
    const store = readMemoryStore(r.root);
    assert.equal(store.entries.length, 6);
    assert.equal(store.entries[5].content, 'tabs, not spaces');
    assert.ok(store.entries.slice(0, 5).every((e) => e.created_at === NOW && /^[0-9a-f]{8}$/.test(e.id)));
    const again = syncFeatureMemory(snapshot, 'en', NOW, 1000);
    assert.equal(again.added.length, 0);
    assert.equal(readMemoryStore(r.root).entries.length, 6);
  } finally {
    r.dispose();
  }
});

test('Sync is the actor’s intent: at the stage that syncs it writes the memory once; at another stage it is refused, with the way on, and writes nothing', async () => {
  const r = syncedGreeting();
  try {
    const spec = new LoomRepository(r.root).get(GREETING)!;
    const first = await request(spec, { type: 'sync' });
    assert.equal(first.kind, 'changed');
    assert.equal(first.kind === 'changed' && first.memory.added.length, 5);
    assert.equal(first.kind === 'changed' && first.memory.file, '.loom/memory/store.json');
    const again = await request(spec, { type: 'sync' });
    assert.equal(again.kind === 'changed' && again.memory.added.length, 0);
    assert.equal(readMemoryStore(r.root).entries.length, 5);

    // At code-review-response, with its answer written, the actor refuses and offers the move on to synced.
    r.write(`${GREETING}/pipeline.state.json`, { ...(r.json(`${GREETING}/pipeline.state.json`) as object), current_stage: 'code-review-response' });
    r.write('.loom/memory/store.json', { entries: [], sessions: [] });
    const refused = await request(spec, { type: 'sync' });
    assert.equal(refused.kind, 'refused');
    if (refused.kind !== 'refused') return;
    assert.equal(refused.code, 'not-at-sync');
    assert.equal(refused.stage, 'code-review-response');
    assert.match(refused.message, /is at code-review-response; Loom syncs a feature at synced/);
    assert.ok(refused.reasons.length > 0);
    assert.deepEqual(readMemoryStore(r.root).entries, []);
    // The way on is not open yet (no verify-report.md, no handoff of code-review-response): no move is offered.
    assert.deepEqual(refused.remedies, []);
    r.write(`${GREETING}/verify-report.md`, '# Verification\n\nverdict: PASS\n');
    r.write(`${GREETING}/handoffs/code-review-response.json`, { stage: 'code-review-response', task_id: 'code-review-response', status: 'done', artifacts: ['review-response.md'] });
    const offered = await request(spec, { type: 'sync' });
    assert.deepEqual(offered.kind === 'refused' && offered.remedies, [{ kind: 'advance', to: 'synced' }]);
  } finally {
    r.dispose();
  }
});

test('Sync in Chinese: the refusal comes from the catalog', async () => {
  const r = syncedGreeting();
  try {
    r.write(`${GREETING}/pipeline.state.json`, { ...(r.json(`${GREETING}/pipeline.state.json`) as object), current_stage: 'verification' });
    const spec = new LoomRepository(r.root).get(GREETING)!;
    setDisplayLanguage('zh');
    const refused = await request(spec, { type: 'sync' }).finally(() => setDisplayLanguage('en'));
    assert.equal(refused.kind === 'refused' && refused.message, `${GREETING} 处于 verification；Loom 在 synced 阶段同步功能。未写入任何内容`);
  } finally {
    r.dispose();
  }
});

test('a corrupt store is named and left untouched by the sync', () => {
  const r = syncedGreeting();
  try {
    r.write('.loom/memory/store.json', '{ "entries": [');
    const snapshot = new LoomRepository(r.root).get(GREETING)!.snapshot;
    assert.throws(() => syncFeatureMemory(snapshot, 'en', NOW, 1000), /\.loom\/memory\/store\.json is corrupt/);
    assert.equal(r.read('.loom/memory/store.json'), '{ "entries": [');
  } finally {
    r.dispose();
  }
});

test('the branch handed on: the feature branch pushed with its upstream, a pull request naming the feature, words quoted for the shell', () => {
  const r = syncedGreeting();
  try {
    const snapshot = new LoomRepository(r.root).get(GREETING)!.snapshot;
    const plan = handOnPlan(snapshot, 'en');
    assert.equal(plan.branch, 'feature/2026-12-01-greeting');
    assert.equal(plan.worktree, undefined);
    assert.equal(plan.commands[0], `git -C ${r.root} push --set-upstream origin feature/2026-12-01-greeting`);
    assert.match(plan.commands[1], /^cd \S+ && gh pr create --head feature\/2026-12-01-greeting --title 'feat: greeting' --body 'Feature greeting/);
    assert.match(plan.body, /REQ-001/);
    assert.equal(shellWord("it's"), `'it'\\''s'`);
  } finally {
    r.dispose();
  }
});

test('loom-vscode sync: the memory update and the commands at the synced stage; refused before it, nothing written', async () => {
  const r = syncedGreeting();
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (t: string) => out.push(t), err: (t: string) => err.push(t) };
  try {
    assert.equal(await main(['sync', '--spec-dir', GREETING, '--json', '--cwd', r.root], io), 0);
    const result = JSON.parse(out.join('\n'));
    assert.equal(result.memory.added.length, 5);
    assert.equal(result.branch, 'feature/2026-12-01-greeting');
    assert.equal(result.commands.length, 2);
    r.write(`${GREETING}/pipeline.state.json`, { ...(r.json(`${GREETING}/pipeline.state.json`) as object), current_stage: 'verification' });
    r.write('.loom/memory/store.json', { entries: [], sessions: [] });
    assert.equal(await main(['sync', '--spec-dir', GREETING, '--cwd', r.root], io), 1);
    assert.match(err.join('\n'), /is at verification; Loom syncs a feature at synced\. Nothing was written/);
    assert.deepEqual(readMemoryStore(r.root).entries, []);
  } finally {
    r.dispose();
  }
});

test('what a new user met (issue 49): one retry is "1 retry", no "blocker: -", the chosen option is a decision, and the CLI says what the type means in the spec’s language', async () => {
  const r = syncedGreeting();
  const out: string[] = [];
  const io = { out: (s: string) => out.push(s), err: (s: string) => out.push(s) };
  try {
    r.write(`${GREETING}/task-states/T1.state.json`, { ...(r.json(`${GREETING}/task-states/T1.state.json`) as object), retry_count: 1, blocker: null, last_reviewer_result: 'PASS' });
    r.write(
      `${GREETING}/spec.md`,
      '# Greeting\n\n## Options considered\n\n1. A template engine. Too much for one line.\n2. **A template literal in `src/greet.js` (chosen).** No dependency.\n\n## REQ-001 Greet by name\n\nThe service greets a person by name.\n',
    );
    const snapshot = new LoomRepository(r.root).get(GREETING)!.snapshot;
    const contents = featureMemoryEntries(snapshot, 'en').map((e) => `[${e.type}] ${e.content}`);
    assert.ok(contents.includes('[决策] greeting: chose A template literal in `src/greet.js` (chosen). No dependency.'), contents.join('\n'));
    assert.ok(contents.includes('[踩坑] greeting: task T1 (Greet by name) needed 1 retry before its review passed'), contents.join('\n'));
    assert.ok(!contents.some((c) => /blocker: -|1 retries/.test(c)), contents.join('\n'));

    // The greeting repository has neither the feature branch nor a remote: the commands come with what to make first.
    assert.equal(await main(['sync', '--spec-dir', GREETING, '--cwd', r.root], io), 0);
    const text = out.join('\n');
    assert.match(text, /\+ \[pitfall\] greeting: task T1/);
    assert.doesNotMatch(text, /\[踩坑\]/);
    assert.match(text, /The branch feature\/2026-12-01-greeting does not exist yet: the git-worktree stage makes it \(Loom: Create Worktree\)/);
    assert.match(text, /The repository has no remote "origin": add it first with `git remote add origin <url>`/);
    assert.match(text, /Push the branch and set its upstream:\n {2}git -C \S+ push --set-upstream origin feature\/2026-12-01-greeting/);
    assert.match(text, /Open the pull request with the GitHub CLI \(gh\):\n {2}cd \S+ && gh pr create/);
  } finally {
    r.dispose();
  }
});
