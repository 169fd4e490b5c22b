// Runs every *.test.ts under a folder (test/unit by default) with node's test runner. Node 20
// does not expand globs given to --test, so the files are listed here.
//
// One process per folder, not per file: each process starts Node and tsx and loads the sources
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

let entries = files;
const groups = mkdtempSync(join(tmpdir(), 'loom-unit-'));
if (process.env.LOOM_TEST_ISOLATION !== 'file') {
  // A folder's files, imported one after the other by one entry named after the folder.
  const byFolder = new Map();
  for (const f of files) {
    const folder = relative(root, dirname(f)).split(/[\\/]/)[0] || '.';
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), f]);
  }
  entries = [...byFolder].flatMap(([folder, members]) => {
    // The root's own files (the webview tests: a browser each) keep a process each, to run side by side.
    if (members.length === 1 || folder === '.') return members;
    const entry = join(groups, `${folder}.test.mjs`);
    writeFileSync(entry, members.map((m) => `await import(${JSON.stringify(pathToFileURL(resolve(m)).href)});\n`).join(''));
    return entry;
  });
}
const concurrency = process.env.LOOM_TEST_CONCURRENCY ?? '2';
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...entries], { stdio: 'inherit' });
rmSync(groups, { recursive: true, force: true });
process.exit(r.status ?? 1);
