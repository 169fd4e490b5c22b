/**
 * `loom-vscode status --json` prints the same bytes whether its cache folder is empty (a first run
 * on a clone, every run in CI), filled by an earlier run, or turned off, on the sample and on a
 * generated repository, and again after files changed between runs (a task state, a task file, a
 * ledger, the workflow, a spec removed and one added), with `--detail full` as without; and the
 * built CLI does on a larger repository.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { generateRepository } from '../../../bench/generateRepository';
import { main } from '../../../src/cli/main';
import { keepCacheEnv } from '../../support/cacheEnv';

/** Results whose files changed this close to the reading are not kept (evaluationCache.ts, RACY_MS): changed files are let age past it. */
const RACY_MS = 2000;
const age = () => new Promise((r) => setTimeout(r, RACY_MS + 200));

let work: string;
const restoreCacheEnv = keepCacheEnv();

before(() => {
  work = mkdtempSync(join(tmpdir(), 'loom-status-cold-warm-'));
});
after(() => {
  rmSync(work, { recursive: true, force: true });
  restoreCacheEnv();
});

/** `status --json` on `repo` with its cache in `cacheDir` (`undefined`: the cache turned off): the exit code and the bytes printed. */
async function status(repo: string, cacheDir: string | undefined, detail: 'summary' | 'full' = 'summary'): Promise<{ code: number; out: string }> {
  if (cacheDir === undefined) process.env.LOOM_VSCODE_CACHE = '0';
  else {
    delete process.env.LOOM_VSCODE_CACHE;
    process.env.LOOM_VSCODE_CACHE_DIR = cacheDir;
  }
  let out = '';
  const code = await main(['status', '--json', '--cwd', repo, '--lang', 'en', '--detail', detail], { out: (t) => (out += t), err: () => undefined });
  return { code, out };
}

/**
 * Cold (an empty cache folder), then warm, then warm again, each against a run without the cache;
 * then `change` is made and the same is checked with the cache the runs before left (the changed
 * files first too fresh to keep, then aged, then kept).
 */
async function sameColdAndWarm(repo: string, change: () => void): Promise<void> {
  const cache = join(work, `cache-${Math.random().toString(36).slice(2)}`);
  const details = ['summary', 'full'] as const;
  const before = new Map<string, { code: number; out: string }>();
  for (const detail of details) {
    const uncached = await status(repo, undefined, detail);
    before.set(detail, uncached);
    assert.equal(JSON.parse(uncached.out).length > 0, true);
    assert.deepEqual(await status(repo, cache, detail), uncached, `cold (${detail})`);
    assert.deepEqual(await status(repo, cache, detail), uncached, `warm (${detail})`);
    assert.deepEqual(await status(repo, cache, detail), uncached, `warm again (${detail})`);
  }
  change();
  for (const detail of details) {
    const changed = await status(repo, undefined, detail);
    assert.notDeepEqual(changed.out, before.get(detail)!.out, `the change shows (${detail})`);
    assert.deepEqual(await status(repo, cache, detail), changed, `right after the change (${detail})`);
  }
  await age();
  for (const detail of details) {
    const changed = await status(repo, undefined, detail);
    assert.deepEqual(await status(repo, cache, detail), changed, `once the changed files aged (${detail})`);
    assert.deepEqual(await status(repo, cache, detail), changed, `from the cache (${detail})`);
    // And a cold run on the changed repository.
    assert.deepEqual(await status(repo, join(work, `cold-${Math.random().toString(36).slice(2)}`), detail), changed, `cold after the change (${detail})`);
  }
}

function editJson(file: string, edit: (value: Record<string, unknown>) => void): void {
  const value = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  edit(value);
  writeFileSync(file, JSON.stringify(value, null, 2));
}

test('on the sample: cold, warm and uncached runs print the same bytes, before and after its files change', async () => {
  const repo = join(work, 'sample');
  cpSync(resolve(__dirname, '../../../sample'), repo, { recursive: true });
  await age();
  await sameColdAndWarm(repo, () => {
    const spec = join(repo, 'specs/2026-11-25+due-dates');
    editJson(join(spec, 'pipeline.state.json'), (s) => (s.current_stage = 'planning'));
    appendFileSync(join(spec, 'spec.md'), '\n{{PLACEHOLDER}}\n');
    rmSync(join(repo, 'specs/2026-11-28+tags'), { recursive: true });
    cpSync(join(repo, 'specs/2026-11-20+todo-crud'), join(repo, 'specs/2026-12-01+todo-copy'), { recursive: true });
  });
});

test('on a generated repository: the same bytes cold, warm and uncached, before and after changes', async () => {
  const repo = join(work, 'generated');
  generateRepository(repo, 120, 3);
  await age();
  await sameColdAndWarm(repo, () => {
    const spec = (n: number) => join(repo, `specs/2026-11-${String((n % 28) + 1).padStart(2, '0')}+feature-${n}`);
    editJson(join(spec(3), 'task-states/T1.state.json'), (s) => {
      s.status = 'blocked';
      s.blocker = 'waiting on the API';
    });
    writeFileSync(join(spec(40), 'tasks/T2.md'), readFileSync(join(spec(40), 'tasks/T2.md'), 'utf8').replace(/complexity: \w+/, 'complexity: huge'));
    editJson(join(spec(77), 'requirements.json'), (r) => (r.requirements = []));
    rmSync(spec(100), { recursive: true });
    cpSync(spec(5), join(repo, 'specs/2026-12-01+feature-new'), { recursive: true });
    // Every spec's status depends on the workflow: a comment changes its file, not its pipelines.
    appendFileSync(join(repo, '.loom/workflow.yaml'), '\n# edited\n');
  });
});

test('the built CLI on 600 specs: the same bytes cold, warm and uncached', async () => {
  const bin = resolve(__dirname, '../../../bin/loom-vscode.js');
  assert.ok(existsSync(resolve(__dirname, '../../../dist/cli.js')), 'dist/cli.js is missing: run "npm run build" first (npm test does)');
  const repo = join(work, 'large');
  generateRepository(repo, 600, 2);
  await age();
  const cache = join(work, 'cache-built');
  const run = (cacheEnv: Record<string, string>) => {
    const r = spawnSync(process.execPath, [bin, 'status', '--json', '--lang', 'en', '--cwd', repo], {
      encoding: 'utf8',
      maxBuffer: 1 << 28,
      env: { ...process.env, LOOM_VSCODE_CACHE: '', ...cacheEnv },
    });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  const uncached = run({ LOOM_VSCODE_CACHE: '0' });
  assert.equal(uncached.code, 0, uncached.err);
  assert.equal((JSON.parse(uncached.out) as unknown[]).length, 600);
  assert.deepEqual(run({ LOOM_VSCODE_CACHE_DIR: cache }), uncached, 'cold');
  assert.deepEqual(run({ LOOM_VSCODE_CACHE_DIR: cache }), uncached, 'warm');
});
