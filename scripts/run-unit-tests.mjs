// Runs every *.test.ts under a folder (test/unit by default) with node's test runner. Node 20
// does not expand globs given to --test, so the files are listed here.
//
// One process per folder (a big folder in parts), not per file: each process starts Node and tsx and loads the sources
// its tests import, which took longer than most files' tests (about 1 s a file, 140 files). The
// files of a folder share a process and run one after the other, as their top-level tests do in
// one file; a test that changes process-wide state (an environment variable, the display
// language, the working folder) puts it back in a finally. LOOM_TEST_ISOLATION=file runs one
// process per file again.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = process.argv[2] ?? 'test/unit';
const files = [];
const walk = (dir) => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (e.name.endsWith('.test.ts')) files.push(p);
  }
};
walk(root);
files.sort();
if (files.length === 0) {
  console.error(`no test files under ${root}`);
  process.exit(1);
}

/**
 * About how long each folder's tests take in one process (seconds, 2026-12-07, at load 13 on two
 * cores; a quiet machine takes a fifth): only to cut the slow ones and start them first. A folder
 * not listed counts five seconds a file.
 */
const SECONDS = { executing: 670, resume: 710, cli: 210, repository: 170, lint: 115, port: 110, pipeline: 110, files: 105, drift: 100, mcp: 80, pipelineRun: 75 };

let entries = files;
const groups = mkdtempSync(join(tmpdir(), 'loom-unit-'));
if (process.env.LOOM_TEST_ISOLATION !== 'file') {
  // A folder's files, imported one after the other by one entry named after the folder. A slow
  // folder is cut into parts, each its own process, and the slowest parts start first: in one
  // process executing's 26 files took 11 minutes and resume's crash loops 12 (at load 13), each
  // the long pole however many processes ran beside it.
  const byFolder = new Map();
  for (const f of files) {
    const folder = relative(root, dirname(f)).split(/[\\/]/)[0] || '.';
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), f]);
  }
  const parts = [...byFolder].flatMap(([folder, members]) => {
    const seconds = SECONDS[folder] ?? members.length * 5;
    if (folder === '.') return [{ folder, members, seconds }];
    const count = Math.min(members.length, Math.max(Math.ceil(members.length / 5), Math.ceil(seconds / 120)));
    const size = Math.ceil(members.length / count);
    const cut = Array.from({ length: count }, (_, i) => members.slice(i * size, (i + 1) * size)).filter((m) => m.length);
    return cut.map((m, i) => ({ folder: cut.length > 1 ? `${folder}-${i + 1}` : folder, members: m, seconds: (seconds * m.length) / members.length }));
  });
  parts.sort((a, b) => b.seconds - a.seconds);
  entries = parts.flatMap(({ folder, members }) => {
    // The root's own files (the webview tests: a browser each) keep a process each, to run side by side.
    if (members.length === 1 || folder === '.') return members;
    const entry = join(groups, `${folder}.test.mjs`);
    // Node runs the root's `after` hooks each time its queue of tests runs dry (lib/internal/
    // test_runner/test.js, Test.postRun calls root.run()). Imported one after the other, the files
    // left it dry between two of them: a file's top-level `after` then ran before the later files'
    // tests, or, when the next file's import settled in that moment, during its own first test
    // (specLooks' scratch copy went while its worker read it, in the clean-clone CI). So after each
    // file's tests comes a test that waits for the next file's import: the queue never runs dry
    // before the last file's tests, and the next file still loads while this one's tests run.
    const urls = members.map((m) => pathToFileURL(resolve(m)).href);
    const lines = [`import { test } from 'node:test';`, `let next = import(${JSON.stringify(urls[0])});`];
    for (let i = 1; i < urls.length; i++) {
      lines.push(`await next;`, `next = import(${JSON.stringify(urls[i])});`);
      lines.push(`test(${JSON.stringify(`(${folder}: ${relative(root, members[i])} imported)`)}, () => next.then(() => {}));`);
    }
    lines.push(`await next;`);
    writeFileSync(entry, lines.join('\n') + '\n');
    return entry;
  });
}
// Three at once on two cores: most of a process's time is waiting on git, a test run or a
// child CLI, so a third keeps the cores busy.
const concurrency = process.env.LOOM_TEST_CONCURRENCY ?? '3';
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...entries], { stdio: 'inherit' });
rmSync(groups, { recursive: true, force: true });
process.exit(r.status ?? 1);
