import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { TOOL_NAMES, WorkspaceTools, type WorkspaceToolsOptions } from '../../../src/core/executing/tools/workspaceTools';
import { FakeTestRunner } from './helpers/fakes';

/**
 * loom_search_text with hostile input: a pattern that backtracks catastrophically in a
 * JavaScript RegExp (`(a+)+$` against a run of `a`s ended by `!` takes 2^n steps), patterns
 * RE2 cannot run, and a search stopped by its deadline or by the dispatch's abort. The bounds
 * below only prove "does not hang"; the search itself runs in a worker thread.
 */
const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** 30 `a`s and a `!`: a JavaScript RegExp blocks its thread for minutes on `(a+)+$`, and twice as long per extra `a`. */
const BOMB_LINE = `${'a'.repeat(30)}!`;

function worktree(): string {
  const root = mkdtempSync(join(tmpdir(), 'loom-search-'));
  dirs.push(root);
  mkdirSync(join(root, 'docs'), { recursive: true });
  mkdirSync(join(root, '.GIT'), { recursive: true });
  writeFileSync(join(root, 'docs', 'title.md'), `Title\n=====\n${BOMB_LINE}\n`);
  writeFileSync(join(root, 'docs', 'notes.md'), 'aaa\n');
  writeFileSync(join(root, '.GIT', 'config'), 'aaa\n');
  return root;
}

function tools(root: string, extra: Partial<WorkspaceToolsOptions> = {}) {
  const t = new WorkspaceTools({
    worktree: root,
    task: 'T1',
    role: 'reviewer',
    scope: { kind: 'none' },
    trusted: true,
    testRunner: new FakeTestRunner(),
    testTimeoutMs: 1000,
    log: () => {},
    now: () => '2026-12-01T10:00:00.000Z',
    ...extra,
  });
  return (input: unknown, signal = new AbortController().signal) => t.invoke({ callId: 'c', name: TOOL_NAMES.searchText, input }, signal);
}

/** Resolves with how late a timer set now fired, while `work` runs. */
async function timerLateness<T>(work: () => Promise<T>): Promise<{ result: T; lateMs: number }> {
  const set = Date.now();
  const fired = new Promise<number>((resolve) => setTimeout(() => resolve(Date.now() - set - 20), 20));
  const result = await work();
  return { result, lateMs: await fired };
}

test('a catastrophic pattern is answered by the linear-time engine while the host thread stays free', { timeout: 30_000 }, async () => {
  const search = tools(worktree());
  const { result, lateMs } = await timerLateness(() => search({ query: '(a+)+$', regex: true }));
  assert.equal(result.outcome, 'ok', result.content);
  assert.equal(result.content, 'docs/notes.md:1: aaa', 'the bomb line does not match and .GIT is not searched');
  assert.ok(lateMs < 5_000, `a timer set before the search fired ${lateMs} ms late`);
});

test('a pattern RE2 cannot run (backreference, lookaround) is a refusal the model reads', { timeout: 30_000 }, async () => {
  const search = tools(worktree());
  for (const query of ['(a*)*\\1', '(?=a)a', '(?<!b)a']) {
    const r = await search({ query, regex: true });
    assert.equal(r.outcome, 'refused', `${query}: ${r.content}`);
    assert.match(r.content, /does not compile in RE2 syntax/);
  }
});

test('a pattern longer than the cap is refused before any search starts', async () => {
  const r = await tools(worktree())({ query: 'a'.repeat(1001), regex: true });
  assert.equal(r.outcome, 'refused');
  assert.match(r.content, /1001 characters long; at most 1000/);
});

test('a long line is searched in its first 4000 characters only', { timeout: 30_000 }, async () => {
  const root = worktree();
  writeFileSync(join(root, 'docs', 'wide.txt'), `${'x'.repeat(5000)}needle\nneedle early\n`);
  assert.equal((await tools(root)({ query: 'needle', path: 'docs/wide.txt' })).content, 'docs/wide.txt:2: needle early');
});

test('literal text is quoted; links are not followed; results are capped at 100', { timeout: 30_000 }, async () => {
  const root = worktree();
  const outside = mkdtempSync(join(tmpdir(), 'loom-search-outside-'));
  dirs.push(outside);
  writeFileSync(join(outside, 'secret.txt'), 'a+b\n');
  symlinkSync(outside, join(root, 'docs', 'link'));
  writeFileSync(join(root, 'docs', 'many.txt'), 'a+b\n'.repeat(150));
  const r = await tools(root)({ query: 'A+B' });
  const lines = r.content.split('\n');
  assert.equal(lines.length, 101, r.content.slice(0, 200));
  assert.ok(
    lines.slice(0, 100).every((l) => l.startsWith('docs/many.txt:')),
    'nothing through the link',
  );
  assert.match(lines[100], /stopped at 100 matches/);
  assert.equal((await tools(root)({ query: 'A+B', case_sensitive: true })).content, 'no matches');
});

test('a search past its deadline is stopped: its worker is terminated and the model reads a refusal', { timeout: 30_000 }, async () => {
  const root = worktree();
  for (let i = 0; i < 200; i++) writeFileSync(join(root, 'docs', `f${i}.txt`), 'zzz\n'.repeat(2000));
  const { result, lateMs } = await timerLateness(() => tools(root, { searchDeadlineMs: 1 })({ query: 'q', regex: true }));
  assert.equal(result.outcome, 'refused', result.content);
  assert.match(result.content, /ran longer than 0.001 s and was stopped; search a smaller folder or a simpler pattern/);
  assert.ok(lateMs < 5_000, `a timer fired ${lateMs} ms late`);
});

test("the dispatch's abort stops a running search and is thrown, not turned into a tool result", { timeout: 30_000 }, async () => {
  const search = tools(worktree());
  const controller = new AbortController();
  const reason = new Error('stopped by the user');
  const running = search({ query: 'a', regex: true }, controller.signal);
  controller.abort(reason);
  await assert.rejects(running, (e) => e === reason);
});
