#!/usr/bin/env node
'use strict';
/**
 * Runs the integration test suites inside a real VS Code.
 *
 *   npm run test:integration              # all suites
 *   npm run test:integration -- smoke     # only the named suites
 *
 * Which VS Code:
 *   - a desktop VS Code downloaded by @vscode/test-electron (cached in .vscode-test/) when it can
 *     be downloaded and, on Linux, a display is available (e.g. under xvfb-run);
 *   - otherwise code-server (VS Code 1.139.1 in headless chromium) through test/vscode/code-shim.js,
 *     installing it with test/vscode/setup.sh first if needed. Offline machines end up here.
 *
 * Environment:
 *   LOOM_TEST_CODE_SERVER=1   always use code-server;  =0: always desktop (fail if unavailable)
 *   LOOM_TEST_VSCODE_VERSION  desktop VS Code version (default 1.139.1, the one code-server bundles)
 *   LOOM_TEST_SKIP_BUILD=1    do not run `npm run build` first
 *   LOOM_TEST_JOBS=N          suites run at once (default 2; 1 runs them one after the other in this process)
 *   LOOM_*                    passed on to the extension host (both routes)
 */
const { spawn, spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { runTests, downloadAndUnzipVSCode } = require('@vscode/test-electron');

const ROOT = path.resolve(__dirname, '..', '..');
const SHIM = path.join(ROOT, 'test', 'vscode', 'code-shim.js');
const CACHE_DIR = path.join(ROOT, '.vscode-test'); // downloaded VS Code builds, extensions dir (gitignored)
const DESKTOP_VERSION = process.env.LOOM_TEST_VSCODE_VERSION || '1.139.1';

/**
 * One suite = a workspace to open (a folder, or a .code-workspace file for multi-root) and a
 * tests dir whose index.js exports run(). `extensions` are extra extensionDevelopmentPaths loaded
 * next to this extension (e.g. 'test/integration/scripted-model-extension'); `env` is extra
 * environment for the extension host. Paths are relative to the repository root.
 * `workspaceTrust: true` opens the workspace untrusted (Restricted Mode); such a suite always runs
 * in code-server, because @vscode/test-electron starts desktop VS Code with --disable-workspace-trust.
 * `windows: N` opens the same workspace copy with the same profile N times, one window after the
 * other (a reload); the tests see LOOM_TEST_WINDOW (1..N) and LOOM_TEST_STATE, a file that one
 * window may leave for the next.
 * `seconds` is about how long the suite takes beside another one (2026-12-07, two lanes on two
 * cores with other work on the machine): the lanes start the longest first.
 */
const SUITES = [
  {
    name: 'smoke',
    seconds: 40,
    workspace: 'test/fixtures/integration-workspace',
    tests: 'test/integration/suite',
    extensions: [],
    env: {},
  },
  {
    // The tree, Advance / Approve / Mark Failed / Recover / New Feature, diagnostics, watcher.
    name: 'basic',
    seconds: 150,
    workspace: 'test/fixtures/workspace-basic',
    tests: 'test/integration/basic',
    extensions: [],
    env: {},
    copy: true,
  },
  {
    // Create Worktree and Run Tasks on a throwaway git repository, through vscode.lm against the
    // scripted "loom-test" model of the test extension loaded beside Loom; then a reload.
    name: 'executing',
    seconds: 300,
    workspace: 'test/fixtures/workspace-executing',
    tests: 'test/integration/executing',
    extensions: ['test/integration/scripted-model-extension'],
    env: {},
    copy: true,
    // The second window (a reload) checks that a stopped run still says where and since when.
    windows: 2,
  },
  {
    // @loom in the chat view: /brainstorm, /expand and /plan drafted by the scripted model (picked
    // in the chat view), written on the user's word, and Advance to approved with confirmations.
    name: 'chat',
    seconds: 400,
    workspace: 'test/fixtures/workspace-chat',
    tests: 'test/integration/chat',
    extensions: ['test/integration/scripted-model-extension'],
    env: { LOOM_TEST_AUTHORING_FIXTURE: path.resolve(ROOT, 'test/fixtures/authoring') },
    copy: true,
  },
  {
    // Loom: Run Pipeline from New Feature "export todos as CSV" to the review, on a copy of the
    // sample made a git repository: the drafts by the scripted model, the subagents, the tests run
    // for real in the worktree; the gates where it stops, a reload in the middle, Stop Pipeline, Supervised.
    name: 'end-to-end',
    seconds: 350,
    workspace: 'sample',
    tests: 'test/integration/endToEnd',
    extensions: ['test/integration/scripted-model-extension'],
    env: { LOOM_TEST_AUTHORING_FIXTURE: path.resolve(ROOT, 'test/fixtures/authoring-csv') },
    copy: true,
    // The first window ends with the run in the middle of executing; the second resumes it (a reload).
    windows: 2,
  },
  {
    name: 'multi-root',
    seconds: 120,
    workspace: 'test/fixtures/workspace-multi/multi.code-workspace',
    tests: 'test/integration/multiRoot',
    extensions: [],
    env: {},
    copy: true,
  },
  {
    // VS Code in Simplified Chinese (`--locale zh-cn`): refusals from Advance and Approve, the
    // Problems panel's entries and the dashboard are worded in Chinese.
    name: 'locale',
    seconds: 80,
    workspace: 'test/fixtures/workspace-basic',
    tests: 'test/integration/locale',
    extensions: [],
    env: {},
    copy: true,
    locale: 'zh-cn',
  },
  {
    // Two windows one after the other on the same workspace and profile, as a reload makes: the
    // second takes every spec's look from the evaluation cache and shows the same Problems entries.
    name: 'warm-start',
    seconds: 140,
    workspace: 'test/fixtures/workspace-basic',
    tests: 'test/integration/warmStart',
    extensions: [],
    env: {},
    copy: true,
    windows: 2,
  },
  {
    // Restricted Mode: workspace trust on and the folder untrusted. The view is read-only and
    // says so; Advance / Mark Failed / New Feature refuse and write nothing.
    name: 'untrusted',
    seconds: 70,
    workspace: 'test/fixtures/workspace-basic',
    tests: 'test/integration/untrusted',
    extensions: [],
    env: {},
    copy: true,
    workspaceTrust: true,
  },
];

/**
 * Suites with `copy: true` write into their workspace, so they open a fresh copy of it in a
 * temporary directory (for a .code-workspace file, a copy of the folder that holds it). Returns
 * the path to open and a cleanup function.
 */
function prepareWorkspace(suite) {
  const source = path.resolve(ROOT, suite.workspace);
  if (!suite.copy) return { target: source, cleanup: () => {} };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loom-ws-'));
  const isFile = source.endsWith('.code-workspace');
  const folder = isFile ? path.dirname(source) : source;
  const copy = path.join(tmp, path.basename(folder));
  fs.cpSync(folder, copy, { recursive: true });
  return {
    target: isFile ? path.join(copy, path.basename(source)) : copy,
    cleanup: () => fs.rmSync(tmp, { recursive: true, force: true }),
  };
}

/** Path of the "VS Code executable" to hand to runTests(). */
async function resolveVSCode() {
  const mode = process.env.LOOM_TEST_CODE_SERVER;
  if (mode === '1') return useCodeServer('LOOM_TEST_CODE_SERVER=1');
  if (mode !== '0' && process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return useCodeServer('no display for a desktop VS Code (run under xvfb-run to use one)');
  }
  try {
    const exe = await downloadAndUnzipVSCode({ version: DESKTOP_VERSION, cachePath: CACHE_DIR, timeout: 15000 });
    console.log(`Using desktop VS Code ${DESKTOP_VERSION}: ${exe}`);
    return exe;
  } catch (e) {
    if (mode === '0') throw new Error(`desktop VS Code ${DESKTOP_VERSION} unavailable: ${e.message}`, { cause: e });
    return useCodeServer(`desktop VS Code could not be downloaded (${e.message.split('\n')[0]})`);
  }
}

function useCodeServer(reason) {
  console.log(`Using code-server (VS Code 1.139.1 in headless chromium): ${reason}`);
  require('../vscode/codeServer').ensureInstalled();
  return SHIM;
}

function build() {
  if (process.env.LOOM_TEST_SKIP_BUILD === '1') return;
  const r = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('npm run build failed');
}

/** Runs one suite; resolves to true when it passed. */
async function runSuite(suite, vscodeExecutablePath) {
  console.log(`\n=== integration suite "${suite.name}" (${suite.workspace}) ===`);
  // A fresh profile per suite keeps runs independent. Short path: desktop VS Code puts IPC
  // sockets in the user data dir and Unix socket paths are limited to ~100 characters.
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loom-vsc-'));
  const workspace = prepareWorkspace(suite);
  // Extra extensions: code-server's workbench keeps only one extensionDevelopmentPath of its
  // payload (the last), so every extension goes into one folder, which VS Code scans as a folder
  // of extensions: a link to this one and copies of the extras.
  const extensionsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loom-devext-'));
  let devPaths = [ROOT];
  if (suite.extensions.length) {
    fs.symlinkSync(ROOT, path.join(extensionsDir, 'loom-vscode'), 'dir');
    for (const p of suite.extensions) fs.cpSync(path.resolve(ROOT, p), path.join(extensionsDir, path.basename(p)), { recursive: true });
    devPaths = [extensionsDir];
  }
  // Desktop VS Code always gets --disable-workspace-trust from runTests(): untrusted suites need code-server.
  if (suite.workspaceTrust && vscodeExecutablePath !== SHIM) vscodeExecutablePath = useCodeServer(`suite "${suite.name}" needs workspace trust on`);
  // What one window of a suite of several leaves for the next (LOOM_TEST_STATE), outside the workspace.
  const state = path.join(userDataDir, 'loom-test-state.json');
  try {
    // The evaluation cache keeps no look of a file changed in the last 2 s (racily clean): the copy is let age first.
    if (suite.windows > 1) await new Promise((r) => setTimeout(r, 2500));
    for (let window = 1; window <= (suite.windows ?? 1); window++) {
      await runTests({
        vscodeExecutablePath,
        extensionDevelopmentPath: devPaths,
        extensionTestsPath: path.resolve(ROOT, suite.tests, 'index.js'),
        extensionTestsEnv: {
          LOOM_TEST_SUITE: suite.name,
          LOOM_TEST_WORKSPACE: workspace.target,
          LOOM_TEST_WORKSPACE_TRUST: suite.workspaceTrust ? '1' : '0', // read by code-shim.js
          LOOM_TEST_WINDOW: String(window),
          LOOM_TEST_STATE: state,
          // The code caches of the extension's bundles (userCacheFolder): the suite's own, not the user's.
          LOOM_VSCODE_CACHE_DIR: path.join(userDataDir, 'loom-cache'),
          ...suite.env,
        },
        launchArgs: [
          workspace.target,
          '--disable-extensions', // other installed extensions (desktop only)
          `--user-data-dir=${userDataDir}`,
          `--extensions-dir=${path.join(CACHE_DIR, 'extensions')}`,
          ...(suite.locale ? [`--locale=${suite.locale}`] : []),
        ],
      });
    }
    return true;
  } catch (e) {
    console.error(`Suite "${suite.name}" failed: ${e.message}`);
    return false;
  } finally {
    fs.rmSync(userDataDir, { recursive: true, force: true });
    fs.rmSync(path.join(extensionsDir, 'loom-vscode'), { force: true }); // the link, never what it points to
    fs.rmSync(extensionsDir, { recursive: true, force: true });
    workspace.cleanup();
  }
}

/**
 * How many suites run at once: LOOM_TEST_JOBS, else two when more than one suite is asked for.
 * Most of a suite's time is waiting (a window starting, a debounce, a scripted model's turn), so
 * two windows side by side keep two cores busy and bring CI under its 20 minutes; each suite
 * has its own profile, workspace copy, extensions folder and free port already.
 */
function suiteJobs(count) {
  const asked = Number(process.env.LOOM_TEST_JOBS);
  const jobs = Number.isInteger(asked) && asked > 0 ? asked : 2;
  return Math.min(jobs, count);
}

/**
 * Runs the suites `jobs` at a time, each in its own `runTests.js <suite>` process (the build done
 * once, here), its output lines prefixed with the suite's name so two reports stay readable.
 * The longest start first (each suite's `seconds`), so the lanes end close together. Resolves to the failed names.
 */
async function runInLanes(suites, jobs) {
  const queue = [...suites].sort((a, b) => (b.seconds ?? 0) - (a.seconds ?? 0));
  const failed = [];
  const lane = async () => {
    for (let suite = queue.shift(); suite; suite = queue.shift()) {
      const code = await runSuiteProcess(suite.name);
      if (code !== 0) failed.push(suite.name);
    }
  };
  await Promise.all(Array.from({ length: jobs }, lane));
  return suites.map((s) => s.name).filter((n) => failed.includes(n));
}

function runSuiteProcess(name) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [__filename, name], {
      cwd: ROOT,
      env: { ...process.env, LOOM_TEST_SKIP_BUILD: '1', LOOM_TEST_JOBS: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const started = Date.now();
    const prefix = (stream, out) => {
      let rest = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk) => {
        const lines = (rest + chunk).split('\n');
        rest = lines.pop();
        for (const line of lines) out.write(`[${name}] ${line}\n`);
      });
      stream.on('end', () => rest && out.write(`[${name}] ${rest}\n`));
    };
    prefix(child.stdout, process.stdout);
    prefix(child.stderr, process.stderr);
    child.on('error', (e) => {
      console.error(`[${name}] could not start: ${e.message}`);
      resolve(1);
    });
    child.on('close', (code) => {
      console.log(`[${name}] ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${Math.round((Date.now() - started) / 1000)} s`);
      resolve(code ?? 1);
    });
  });
}

async function main() {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((n) => !SUITES.some((s) => s.name === n));
  if (unknown.length) throw new Error(`unknown suite(s): ${unknown.join(', ')}; known: ${SUITES.map((s) => s.name).join(', ')}`);
  const suites = wanted.length ? SUITES.filter((s) => wanted.includes(s.name)) : SUITES;

  build();
  // Installs code-server when it is the route, once, before any lane starts.
  const vscodeExecutablePath = await resolveVSCode();
  const jobs = suiteJobs(suites.length);
  const failed = [];
  if (jobs > 1) {
    failed.push(...(await runInLanes(suites, jobs)));
  } else {
    for (const suite of suites) if (!(await runSuite(suite, vscodeExecutablePath))) failed.push(suite.name);
  }

  if (failed.length) {
    console.error(`\nIntegration tests FAILED: ${failed.join(', ')}`);
    return 1;
  }
  console.log(`\nIntegration tests passed (${suites.map((s) => s.name).join(', ')})`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`runTests: ${e.message}`);
    process.exit(1);
  },
);
