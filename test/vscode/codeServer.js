'use strict';
/**
 * Helpers for running code-server (VS Code 1.139 served to a browser) as installed by
 * test/vscode/setup.sh. Shared by test/vscode/code-shim.js (integration tests) and
 * scripts/start.js (`npm start`).
 *
 * Facts this relies on (see the project's testing notes):
 *  - code-server needs Node 24; setup.sh puts it in $VSCODE_OFFLINE_HOME/node24.
 *  - code-server spawns helpers (extension host, file watcher, ...). It is started in its own
 *    process group so that the whole group can be killed; killing the pid alone leaves orphans.
 *  - It gets its own user-data, extensions, config and XDG dirs so it never touches ~/.config.
 */
const { spawn, spawnSync } = require('child_process');
const fs = require('fs');
const net = require('net');
const os = require('os');
const path = require('path');

const OFFLINE_HOME = process.env.VSCODE_OFFLINE_HOME || path.join(os.homedir(), '.cache', 'vscode-offline');
const NODE_BIN_DIR = process.env.CS_NODE_BIN_DIR || path.join(OFFLINE_HOME, 'node24', 'bin');
const CODE_SERVER_ENTRY = process.env.CS_BIN || path.join(OFFLINE_HOME, 'cs', 'node_modules', 'code-server', 'out', 'node', 'entry.js');
const SETUP_SCRIPT = path.join(__dirname, 'setup.sh');

/** Flags that let Debian's chromium run headless in containers and stay off the network. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** User settings that keep a fresh profile quiet and deterministic. */
const DEFAULT_SETTINGS = {
  'workbench.startupEditor': 'none',
  'telemetry.telemetryLevel': 'off',
  // In the form VS Code migrates `false` to: written as `false`, every fresh profile's first window rewrote
  // settings.json, which activated the JSON language extension in the middle of the window's start.
  'extensions.autoUpdate': 'off',
  'extensions.autoCheckUpdates': false,
  'security.workspace.trust.enabled': false,
  'update.mode': 'none',
  // Workspaces here (fixtures, sample/) live inside this repository: don't offer to open it.
  'git.openRepositoryInParentFolders': 'never',
};

function isInstalled() {
  return fs.existsSync(path.join(NODE_BIN_DIR, 'node')) && fs.existsSync(CODE_SERVER_ENTRY);
}

/** Runs setup.sh when code-server is missing. Throws when the setup fails. */
function ensureInstalled() {
  if (isInstalled()) return;
  console.log('code-server is not installed yet: running test/vscode/setup.sh (about 3 minutes)...');
  const r = spawnSync('bash', [SETUP_SCRIPT], { stdio: 'inherit' });
  if (r.status !== 0 || !isInstalled()) {
    throw new Error(`test/vscode/setup.sh failed (exit ${r.status}); see its output above`);
  }
}

/** The chromium binary for playwright-core: $CHROMIUM, else Debian's /usr/bin/chromium. */
function chromiumPath() {
  if (process.env.CHROMIUM) return process.env.CHROMIUM;
  for (const p of ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome']) {
    if (fs.existsSync(p)) return p;
  }
  throw new Error('no chromium found: run `npm run setup:vscode` or set $CHROMIUM');
}

/** Launches headless chromium with a fresh persistent profile in `profileDir`. */
async function launchBrowser(profileDir, { headless = true } = {}) {
  const { chromium } = require('playwright-core');
  return chromium.launchPersistentContext(profileDir, {
    executablePath: chromiumPath(),
    headless,
    viewport: { width: 1400, height: 900 },
    args: CHROMIUM_ARGS,
  });
}

/** Resolves to a free TCP port on 127.0.0.1. */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {net.AddressInfo} */ (srv.address());
      srv.close(() => resolve(port));
    });
  });
}

/**
 * User settings with workspace trust on: the folder opens in Restricted Mode, without the startup
 * dialog that would otherwise block the workbench (and the tests) until someone answers it.
 */
const WORKSPACE_TRUST_SETTINGS = {
  'security.workspace.trust.enabled': true,
  'security.workspace.trust.startupPrompt': 'never',
  'security.workspace.trust.untrustedFiles': 'open',
  'security.workspace.trust.banner': 'never',
};

/**
 * Writes DEFAULT_SETTINGS (with WORKSPACE_TRUST_SETTINGS over them when `workspaceTrust`) into
 * `<userDataDir>/User/settings.json` unless it already exists.
 */
function writeDefaultSettings(userDataDir, { workspaceTrust = false } = {}) {
  const userDir = path.join(userDataDir, 'User');
  fs.mkdirSync(userDir, { recursive: true });
  const file = path.join(userDir, 'settings.json');
  const settings = workspaceTrust ? { ...DEFAULT_SETTINGS, ...WORKSPACE_TRUST_SETTINGS } : DEFAULT_SETTINGS;
  if (!fs.existsSync(file)) fs.writeFileSync(file, JSON.stringify(settings, null, 2) + '\n');
}

/**
 * Starts code-server in its own process group.
 *
 * @param {object} o
 * @param {number} o.port
 * @param {string} o.stateDir        holds config.yaml, XDG dirs and code-server.log
 * @param {string} o.userDataDir
 * @param {string} o.extensionsDir
 * @param {boolean} [o.smokeTestDriver]  needed for the URL payload (extension tests / dev paths)
 * @param {boolean} [o.workspaceTrust]  keep workspace trust on (folders open in Restricted Mode);
 *                                       by default it is disabled and every folder is trusted
 * @param {Record<string, string>} [o.env]  extra environment for code-server and its extension host
 * @param {string} [o.locale]  VS Code's display language (`zh-cn`); the default is English
 */
/**
 * VS Code resolves a display language other than English only through an installed language
 * pack, and none can be downloaded here. The tests need `vscode.env.language` (what Loom reads),
 * not a translated workbench, so an empty pack is registered in `languagepacks.json`: every
 * workbench string stays English, the reported language is `locale`.
 */
function writeLanguagePack(userDataDir, stateDir, locale) {
  const translations = path.join(stateDir, `language-pack-${locale}.i18n.json`);
  fs.writeFileSync(translations, JSON.stringify({ version: '1.0.0', contents: {} }));
  const pack = { hash: `loom-test-${locale}`, extensions: [{ extensionIdentifier: { id: 'loom-test.language-pack' }, version: '1.0.0' }], translations: { vscode: translations }, label: locale };
  fs.writeFileSync(path.join(userDataDir, 'languagepacks.json'), JSON.stringify({ [locale]: pack }));
}

function startCodeServer({ port, stateDir, userDataDir, extensionsDir, smokeTestDriver = false, workspaceTrust = false, env = {}, locale }) {
  const host = '127.0.0.1';
  for (const d of [stateDir, userDataDir, extensionsDir]) fs.mkdirSync(d, { recursive: true });
  writeDefaultSettings(userDataDir, { workspaceTrust });
  const config = path.join(stateDir, 'config.yaml');
  fs.writeFileSync(config, 'auth: none\ncert: false\n');

  const args = [
    CODE_SERVER_ENTRY,
    '--config',
    config,
    '--bind-addr',
    `${host}:${port}`,
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    ...(workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--user-data-dir',
    userDataDir,
    '--extensions-dir',
    extensionsDir,
  ];
  if (smokeTestDriver) args.push('--vscode-option', 'enable-smoke-test-driver');
  if (locale) {
    args.push('--locale', locale);
    writeLanguagePack(userDataDir, stateDir, locale);
  }

  const logFile = path.join(stateDir, 'code-server.log');
  const log = fs.openSync(logFile, 'a');
  const proc = spawn(path.join(NODE_BIN_DIR, 'node'), args, {
    env: {
      ...process.env,
      ...env,
      PATH: `${NODE_BIN_DIR}${path.delimiter}${process.env.PATH}`,
      XDG_CONFIG_HOME: path.join(stateDir, 'xdg-config'),
      XDG_DATA_HOME: path.join(stateDir, 'xdg-data'),
    },
    stdio: ['ignore', log, log],
    detached: true, // own process group: see killGroup()
  });
  fs.closeSync(log);

  let exited = false;
  proc.on('exit', () => (exited = true));

  /** Sends `signal` to the whole process group; ignores "no such process". */
  const signalGroup = (signal) => {
    try {
      if (proc.pid) process.kill(-proc.pid, signal);
    } catch {
      /* already gone */
    }
  };

  return {
    proc,
    port,
    authority: `${host}:${port}`,
    baseUrl: `http://${host}:${port}/`,
    logFile,
    hasExited: () => exited,
    /** SIGTERM the process group, then SIGKILL whatever is left after `graceMs`. */
    async stop(graceMs = 2000) {
      signalGroup('SIGTERM');
      const deadline = Date.now() + graceMs;
      while (!exited && Date.now() < deadline) await sleep(100);
      signalGroup('SIGKILL'); // children may outlive the leader
    },
    /** Synchronous last-resort kill, for process 'exit' handlers. */
    killNow() {
      signalGroup('SIGKILL');
    },
  };
}

/** Polls /healthz until code-server answers; throws if it exits or `timeoutMs` passes. */
async function waitUntilReady(server, timeoutMs = 60000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (server.hasExited()) throw new Error(`code-server exited during startup; see ${server.logFile}`);
    try {
      const res = await fetch(new URL('healthz', server.baseUrl));
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`code-server did not start within ${timeoutMs} ms; see ${server.logFile}`);
    await sleep(250);
  }
}

/** `vscode-remote://127.0.0.1:PORT/abs/path`: how the browser workbench names a server-side path. */
function remoteUri(authority, absPath) {
  const encoded = path.resolve(absPath).split('/').map(encodeURIComponent).join('/');
  return `vscode-remote://${authority}${encoded}`;
}

/**
 * The workbench URL opening `target` (a folder, or a `.code-workspace` file for a multi-root
 * workspace; none for an empty window), with an optional payload: a list of [key, value] pairs
 * such as ['extensionDevelopmentPath', remoteUri(...)]. code-server honours the payload only
 * when started with the smoke-test driver option.
 */
function workbenchUrl(server, { target, payload } = {}) {
  const url = new URL(server.baseUrl);
  if (!target) url.searchParams.set('ew', 'true');
  else if (target.endsWith('.code-workspace')) url.searchParams.set('workspace', path.resolve(target));
  else url.searchParams.set('folder', path.resolve(target));
  if (payload && payload.length) url.searchParams.set('payload', JSON.stringify(payload));
  return url.toString();
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

module.exports = {
  OFFLINE_HOME,
  CODE_SERVER_ENTRY,
  SETUP_SCRIPT,
  isInstalled,
  ensureInstalled,
  launchBrowser,
  freePort,
  startCodeServer,
  waitUntilReady,
  remoteUri,
  workbenchUrl,
  writeDefaultSettings,
  sleep,
};
