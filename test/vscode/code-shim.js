#!/usr/bin/env node
'use strict';
/**
 * code-shim: a stand-in "VS Code executable" for machines where desktop VS Code cannot be
 * downloaded. Pass it as `vscodeExecutablePath` to @vscode/test-electron's runTests().
 *
 * It accepts the desktop `code` arguments that runTests() passes:
 *   --extensionDevelopmentPath=<dir>   (repeatable: the extension plus e.g. a test extension)
 *   --extensionTestsPath=<file>        the test runner module exporting run()
 *   --user-data-dir=<dir> --extensions-dir=<dir>
 *   --locale=<tag>                     VS Code's display language (code-server's --locale)
 *   [<folder> | <file.code-workspace>] the workspace to open (a .code-workspace is multi-root)
 * (both `--flag=value` and `--flag value`; other desktop-only flags are ignored) and then:
 *
 *   1. starts code-server (VS Code 1.139, installed by setup.sh) on a free loopback port with the
 *      smoke-test driver enabled, in its own process group;
 *   2. opens the workbench in headless chromium (playwright-core) with a URL payload naming the
 *      development extensions, the tests and the extension environment;
 *   3. forwards the extension host's console output (the mocha report) to stdout;
 *   4. waits for the workbench to call window.codeAutomationExit(code) when the tests finish,
 *      kills code-server's process group and exits with that code.
 *
 * Exit codes: the tests' own code; 124 on timeout; 3 when code-server or chromium fail.
 *
 * Environment:
 *   LOOM_*               copied into the extension host environment (extensionEnvironment)
 *   SHIM_EXTENSION_ENV   JSON object of further extension host environment variables
 *   LOOM_TEST_WORKSPACE_TRUST=1  keep workspace trust on: the folder opens untrusted, in Restricted
 *                        Mode (by default code-server runs with --disable-workspace-trust)
 *   SHIM_TIMEOUT_MS      overall timeout for the tests (default 900000: a backstop for a hung window;
 *                        mocha's own timeouts fail a slow test first. The chat suite takes 4-6 minutes
 *                        beside another suite on two busy cores)
 *   SHIM_SCREENSHOT      write a PNG of the workbench there when the tests end
 *   SHIM_VERBOSE=1       forward all browser console output, unfiltered
 *   SHIM_KEEP_TMP=1      keep the temporary dir (logs, profiles) even when the tests pass
 *   VSCODE_OFFLINE_HOME, CHROMIUM   where setup.sh installed things / which chromium to use
 */
const fs = require('fs');
const os = require('os');
const path = require('path');
const util = require('util');
const cs = require('./codeServer');

const TIMEOUT_MS = Number(process.env.SHIM_TIMEOUT_MS || 900000);
const ENV_PREFIX = 'LOOM_';
const EXIT_TIMEOUT = 124;
const EXIT_INFRA = 3;

/**
 * SHIM_RENDERER_CPUPROFILE=<folder>: a CPU profile of the workbench's page from before it loads
 * until the tests end, as renderer-<epoch ms at its start>.cpuprofile, to see what the window does
 * while an extension waits on it (the editor benchmarks).
 */
async function startRendererProfile(page) {
  const folder = process.env.SHIM_RENDERER_CPUPROFILE;
  if (!folder) return async () => undefined;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
  await cdp.send('Profiler.start');
  const startedAt = Date.now();
  return async () => {
    const { profile } = await cdp.send('Profiler.stop').catch(() => ({}));
    if (profile) fs.writeFileSync(path.join(folder, `renderer-${startedAt}.cpuprofile`), JSON.stringify(profile));
  };
}

/** Parses desktop-code style arguments. */
function parseArgs(argv) {
  const valueFlags = {
    extensionDevelopmentPath: 'devPaths',
    extensionTestsPath: 'testsPath',
    'user-data-dir': 'userDataDir',
    'extensions-dir': 'extensionsDir',
  };
  const out = { devPaths: [], testsPath: undefined, userDataDir: undefined, extensionsDir: undefined, targets: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const m = /^--([^=]+)(?:=(.*))?$/s.exec(arg);
    if (!m) {
      out.targets.push(path.resolve(arg));
      continue;
    }
    // VS Code's display language (`--locale zh-cn`), handed on to code-server.
    if (m[1] === 'locale') {
      out.locale = m[2] !== undefined ? m[2] : argv[++i];
      continue;
    }
    const key = valueFlags[m[1]];
    if (!key) continue; // desktop-only flags: --no-sandbox, --disable-gpu-sandbox, --skip-welcome, ...
    const value = path.resolve(m[2] !== undefined ? m[2] : argv[++i]);
    if (key === 'devPaths') out.devPaths.push(value);
    else out[key] = value;
  }
  return out;
}

/** LOOM_* variables from our environment, plus the JSON object in $SHIM_EXTENSION_ENV. */
function extensionEnvironment() {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (k.startsWith(ENV_PREFIX) && v !== undefined) env[k] = v;
  if (process.env.SHIM_EXTENSION_ENV) Object.assign(env, JSON.parse(process.env.SHIM_EXTENSION_ENV));
  return env;
}

// Extension-host console.* calls reach the browser console as workbench log entries shaped like
// ['%c INFO', 'color: ...', format, ...args]; workbench and offline noise arrives there as well.
const LOG_ENTRY = /^%c\s*(TRACE|DEBUG|INFO|WARN|ERR)/;
const NOISE = new RegExp(
  '^(' +
    [
      String.raw`\[(ChatModelSelection|AgentHost[^\]]*|AccountPolicyGate|Service Worker|reconnection-grace-time)\]`,
      'Resolv(ing|ed) connection token',
      'Creating a socket',
      'Updating additional builtin',
      'Failed to load resource',
      'The web worker extension host',
      'An iframe which has both',
      'Failed: getaddrinfo',
      'Error: Timed out waiting for authentication provider',
      'Creation of workbench contribution',
      'Canceled: Canceled', // remote calls cut short while the window shuts down
    ].join('|') +
    ')',
);

/** Turns a browser console message into one line of text, or null to drop it. */
async function formatConsoleMessage(msg) {
  let args;
  try {
    args = await Promise.all(msg.args().map((a) => a.jsonValue()));
  } catch {
    args = [msg.text()];
  }
  if (args.length === 0 && !process.env.SHIM_VERBOSE) return null; // the workbench logs some empty errors
  let line;
  if (typeof args[0] === 'string' && LOG_ENTRY.test(args[0]) && args.length >= 3) {
    const [, , format, ...rest] = args;
    line = typeof format === 'string' ? util.format(format.replace(/%c/g, ''), ...rest) : util.format(format, ...rest);
  } else {
    line = util.format(...args);
  }
  if (!process.env.SHIM_VERBOSE && NOISE.test(line.trim())) return null;
  return line;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (!opts.testsPath) {
    console.error('code-shim: --extensionTestsPath is required (this shim only runs extension tests)');
    return 2;
  }
  if (!cs.isInstalled()) {
    console.error(`code-shim: code-server is not installed in ${cs.OFFLINE_HOME}; run \`npm run setup:vscode\``);
    return EXIT_INFRA;
  }

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'code-shim-'));
  const server = cs.startCodeServer({
    port: await cs.freePort(),
    stateDir: tmp,
    userDataDir: opts.userDataDir || path.join(tmp, 'user-data'),
    extensionsDir: opts.extensionsDir || path.join(tmp, 'extensions'),
    smokeTestDriver: true, // without it code-server silently ignores the test payload
    workspaceTrust: process.env.LOOM_TEST_WORKSPACE_TRUST === '1',
    locale: opts.locale,
  });
  // Whatever happens to us, take code-server's process group down with us.
  process.on('exit', () => server.killNow());
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(sig === 'SIGINT' ? 130 : 143));

  let browser;
  let exitCode;
  try {
    await cs.waitUntilReady(server);

    const payload = [...opts.devPaths.map((p) => ['extensionDevelopmentPath', cs.remoteUri(server.authority, p)]), ['extensionTestsPath', cs.remoteUri(server.authority, opts.testsPath)]];
    const env = extensionEnvironment();
    if (Object.keys(env).length) payload.push(['extensionEnvironment', JSON.stringify(env)]);
    const url = cs.workbenchUrl(server, { target: opts.targets[0], payload });

    browser = await cs.launchBrowser(path.join(tmp, 'chromium-profile'));
    const page = browser.pages()[0] || (await browser.newPage());

    // The workbench (in smoke-test mode) calls window.codeAutomationExit(code) when the tests end.
    let reportExit;
    const exited = new Promise((resolve) => (reportExit = resolve));
    await page.exposeFunction('codeAutomationExit', (code) => reportExit(Number.isInteger(code) ? code : 1));
    page.on('crash', () => reportExit('crash'));

    // Print console output in arrival order even though formatting is asynchronous.
    let printing = Promise.resolve();
    page.on('console', (msg) => {
      const line = formatConsoleMessage(msg);
      printing = printing.then(async () => {
        const text = await line;
        if (text !== null) process.stdout.write(text + '\n');
      });
    });

    const stopProfile = await startRendererProfile(page);
    // On a busy machine the workbench's first load can take longer than playwright's 30 s.
    await page.goto(url, { timeout: 120000 });
    let timer;
    const result = await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(() => resolve('timeout'), TIMEOUT_MS)))]);
    clearTimeout(timer);
    await printing;
    await stopProfile();

    if (process.env.SHIM_SCREENSHOT) {
      await page.screenshot({ path: process.env.SHIM_SCREENSHOT }).catch((e) => console.error('code-shim: screenshot failed:', e.message));
    }
    if (result === 'timeout') {
      console.error(`code-shim: tests did not finish within ${TIMEOUT_MS} ms`);
      exitCode = EXIT_TIMEOUT;
    } else if (result === 'crash') {
      console.error('code-shim: the workbench page crashed');
      exitCode = EXIT_INFRA;
    } else {
      exitCode = result;
    }
  } catch (e) {
    console.error('code-shim:', e instanceof Error ? e.message : e);
    exitCode = EXIT_INFRA;
  } finally {
    await browser?.close().catch(() => {});
    await server.stop();
  }

  if (exitCode === 0 && !process.env.SHIM_KEEP_TMP) fs.rmSync(tmp, { recursive: true, force: true });
  else console.error(`code-shim: code-server log and profiles kept in ${tmp}`);
  return exitCode;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error('code-shim:', e);
    process.exit(EXIT_INFRA);
  },
);
