/**
 * `loom-vscode status` keeps each spec's status in its per-spec cache (LOOM_VSCODE_CACHE_DIR), with
 * everything the status read, and uses it again while all of that is unchanged: what it prints
 * is the same as without the cache, a change shows at once, and a damaged cache file is rebuilt.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { main } from '../../../src/cli/main';
import { compactFileText, parseCompactFile } from '../../../src/core/specdir/compactCacheStore';
import { keepCacheEnv } from '../../support/cacheEnv';

const FIXTURE = resolve(__dirname, '../../fixtures/cli/basic');
const LOGIN = 'specs/2026-11-29+login';
const PROFILE = 'specs/2026-11-28+profile';
/** Results whose files changed this close to the reading are not kept (evaluationCache.ts, RACY_MS): the copy is let age past it. */
const RACY_MS = 2000;

let work: string;
let repo: string;
let cacheDir: string;
const restoreCacheEnv = keepCacheEnv();

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'loom-status-cache-'));
  repo = join(work, 'repo');
  cacheDir = join(work, 'cache');
  cpSync(FIXTURE, repo, { recursive: true });
  await new Promise((r) => setTimeout(r, RACY_MS + 200));
});
after(() => {
  rmSync(work, { recursive: true, force: true });
  restoreCacheEnv();
});

/** `status --json` (and more arguments) with the cache in `cacheDir`, or with no cache at all. */
async function status(cached: boolean, ...more: string[]): Promise<{ code: number; out: string }> {
  process.env.LOOM_VSCODE_CACHE_DIR = cacheDir;
  if (cached) delete process.env.LOOM_VSCODE_CACHE;
  else process.env.LOOM_VSCODE_CACHE = '0';
  let out = '';
  const code = await main(['status', '--cwd', repo, '--json', ...more], { out: (t) => (out += t), err: () => undefined });
  return { code, out };
}

/** The status files (one per repository and display language) and, in each, the entry of every spec kept. */
const statusFiles = () =>
  readdirSync(join(cacheDir, 'status'))
    .filter((n) => n.endsWith('.txt'))
    .map((n) => join(cacheDir, 'status', n));
const statusEntries = (file: string) => parseCompactFile(readFileSync(file, 'utf8'));
/** One spec's entry in a status file. */
interface StatusEntry {
  file: string;
  key: string;
}
/** An entry's two lines (evaluationCache.ts): its header, and the status itself. */
function readStatusFile({ file, key }: StatusEntry) {
  const text = statusEntries(file).get(key)!;
  const cut = text.indexOf('\n');
  return { header: JSON.parse(text.slice(0, cut)), result: JSON.parse(text.slice(cut + 1)) };
}
/** Replaces an entry's text, the rest of its file as it was. */
function writeEntry({ file, key }: StatusEntry, text: string): void {
  const entries = statusEntries(file);
  entries.set(key, text);
  writeFileSync(file, compactFileText(entries));
}
/** An entry as the CLI writes one: the header's checksum is the status's. */
function writeStatusFile(entry: StatusEntry, header: object, result: unknown): void {
  const text = JSON.stringify(result);
  writeEntry(entry, `${JSON.stringify({ ...header, sum: createHash('sha1').update(text).digest('hex') })}\n${text}`);
}
/** The entry whose result is the spec's. */
function statusFileOf(specDir: string): StatusEntry {
  for (const file of statusFiles()) {
    for (const key of statusEntries(file).keys()) {
      if (readStatusFile({ file, key }).result.spec_dir === specDir) return { file, key };
    }
  }
  assert.fail(`no status entry for ${specDir}`);
}

test('the first run keeps each spec’s status; a second prints exactly what a run without the cache prints', async () => {
  const uncached = await status(false);
  const first = await status(true);
  assert.deepEqual(first, uncached);
  const specs = (JSON.parse(first.out) as unknown[]).length;
  assert.equal(statusFiles().length, 1, 'one status file for the repository');
  assert.equal(statusEntries(statusFiles()[0]).size, specs, 'one status per spec in it');
  assert.deepEqual(await status(true), uncached);
});

test('a status from the cache is what is printed: the spec is not read again while nothing it read changed', async () => {
  await status(true);
  const entry = statusFileOf(LOGIN);
  const kept = readFileSync(entry.file, 'utf8');
  const stored = readStatusFile(entry);
  // Another stage than the spec's files say, kept as the CLI keeps a status: printed as kept.
  writeStatusFile(entry, stored.header, { ...stored.result, stage: 'planning' });
  const login = (JSON.parse((await status(true)).out) as { spec_dir: string; stage: string }[]).find((s) => s.spec_dir === LOGIN);
  assert.equal(login?.stage, 'planning', 'the stage kept in the cache');
  writeFileSync(entry.file, kept);
});

test('a task state written since shows at once', async () => {
  await status(true);
  const stateFile = join(repo, LOGIN, 'task-states', 'T1.state.json');
  const state = JSON.parse(readFileSync(stateFile, 'utf8'));
  writeFileSync(stateFile, JSON.stringify({ ...state, status: 'blocked', blocker: 'waiting on the API' }, null, 2));
  const login = (JSON.parse((await status(true)).out) as { spec_dir: string; tasks: { id: string; status: string }[] }[]).find((s) => s.spec_dir === LOGIN);
  assert.equal(login?.tasks.find((t) => t.id === 'T1')?.status, 'blocked');
  assert.deepEqual(await status(true), await status(false));
});

test('a damaged or foreign status entry is rebuilt, never trusted', async () => {
  await status(true);
  const entry = statusFileOf(PROFILE);
  const expected = await status(false);
  const { header, result } = readStatusFile(entry);
  const whole = statusEntries(entry.file).get(entry.key)!;
  for (const damage of [
    '{"format": 1, "ver',
    whole.slice(0, -20),
    // Edited, its checksum not: of another shape, or only another stage.
    `${JSON.stringify(header)}\n${JSON.stringify({ spec_dir: PROFILE })}`,
    `${JSON.stringify(header)}\n${JSON.stringify({ ...result, stage: 'planning' })}`,
    // The format before: one JSON document.
    JSON.stringify({ ...header, format: 2, result }),
    'null',
  ]) {
    writeEntry(entry, damage);
    assert.deepEqual(await status(true), expected, damage.slice(0, 40));
    assert.deepEqual(readStatusFile(entry).result, result, 'written again whole');
  }
});

test('a status file that is truncated, damaged, empty or another file is read as far as it reads and written again', async () => {
  // The files an earlier test wrote age past RACY_MS: every status is kept.
  await new Promise((r) => setTimeout(r, RACY_MS + 200));
  await status(true);
  const expected = await status(false);
  const [file] = statusFiles();
  const whole = readFileSync(file, 'utf8');
  /** Each spec's kept status, by its entry's key. */
  const results = () => new Map([...statusEntries(file).keys()].map((key) => [key, readStatusFile({ file, key }).result]));
  const kept = results();
  for (const damage of [whole.slice(0, Math.floor(whole.length / 2)), whole.replace(/\t(\d+)\n/, '\t1$1\n'), '', 'loom-vscode compact cache 0\n', '{"format":1}']) {
    writeFileSync(file, damage);
    assert.deepEqual(await status(true), expected, JSON.stringify(damage.slice(0, 40)));
    assert.deepEqual(results(), kept, 'every status written again');
  }
});

test('in another language the unmet conditions and the problems are in that language, not taken from the cache', async () => {
  await status(true, '--lang', 'en');
  const zh = await status(true, '--lang', 'zh');
  assert.deepEqual(zh, await status(false, '--lang', 'zh'));
  assert.notDeepEqual(zh.out, (await status(true, '--lang', 'en')).out);
});

test('the team’s rule on open threads, set since in .vscode/settings.json, shows at once', async () => {
  const threads = join(repo, LOGIN, 'review-comments.json');
  const settings = join(repo, '.vscode', 'settings.json');
  writeFileSync(
    threads,
    JSON.stringify({
      version: 1,
      threads: [
        {
          id: 't1',
          file: 'test-report.md',
          line: 1,
          end_line: 1,
          quote: '#',
          status: 'open',
          created_at: '2026-12-01T09:00:00.000Z',
          comments: [{ id: 'c1', author: 'ana', body: 'Which run is this?', created_at: '2026-12-01T09:00:00.000Z' }],
        },
      ],
    }),
  );
  const unmet = (out: string) => JSON.stringify((JSON.parse(out) as { spec_dir: string }[]).find((s) => s.spec_dir === LOGIN));
  // Every check of the move: login's first blocker is its tasks, which comes before the rule's check.
  try {
    const before = await status(true, '--detail', 'full');
    assert.ok(!unmet(before.out).includes('Which run is this?'), 'no rule, no unmet condition for the thread');
    mkdirSync(join(repo, '.vscode'), { recursive: true });
    writeFileSync(settings, JSON.stringify({ 'loom.review.blockOnOpenThreads': true }));
    const after = await status(true, '--detail', 'full');
    assert.ok(unmet(after.out).includes('Which run is this?'), 'the open thread is an unmet condition once the team sets the rule');
    assert.deepEqual(after, await status(false, '--detail', 'full'));
  } finally {
    rmSync(threads, { force: true });
    rmSync(join(repo, '.vscode'), { recursive: true, force: true });
  }
});
