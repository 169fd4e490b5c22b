#!/usr/bin/env node
'use strict';
/**
 * `npm start`: opens VS Code on a copy of the bundled sample workspace (sample/) with this
 * extension loaded from the working tree. `npm start` builds first (`npm run build`).
 *
 *   - The copy (.vscode-test/start/sample, outside the tracked tree) is made the first time and kept
 *     between runs, so what you did there is still there; `npm start -- --fresh` starts over from
 *     sample/. Playing (Advance, New Feature, comments) never changes sample/, which the tests read
 *     as committed. The copy is a git repository of its own, so Create Worktree makes its branches
 *     there, not in this one.
 *
 *   - Desktop: when `code` is on PATH, runs `code --extensionDevelopmentPath=<repo> sample/`.
 *   - Otherwise (or with LOOM_START_CODE_SERVER=1): serves VS Code with code-server (installing it
 *     with test/vscode/setup.sh if needed) on 127.0.0.1:$PORT (default: a free port), without
 *     authentication, prints the URL to open, and keeps running until Ctrl+C.
 *
 * How the extension gets into code-server: code-server has no --extensionDevelopmentPath, and its
 * URL payload (`extensionDevelopmentPath`) is honoured only when it runs with the smoke-test
 * driver option, which also hides notification toasts. So instead the repository is "installed"
 * as a symlink in a private extensions dir (.vscode-test/start/extensions). Rebuild and run
 * "Developer: Reload Window" to pick up changes. (Uninstalling it from the UI removes only the
 * symlink, never the repository; the next `npm start` links it again.)
 */
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const ROOT = path.resolve(__dirname, '..');
const SAMPLE = path.join(ROOT, 'sample');
const STATE_DIR = path.join(ROOT, '.vscode-test', 'start');
/** Where `npm start` plays: a copy of sample/, kept between runs. */
const PLAY = path.join(STATE_DIR, 'sample');

/** sha256 over every file of `dir` (relative path and content), to tell whether sample/ changed since it was copied. */
function treeDigest(dir) {
  const hash = require('crypto').createHash('sha256');
  const walk = (d) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const abs = path.join(d, entry.name);
      if (entry.isDirectory()) walk(abs);
      else hash.update(`${path.relative(dir, abs)}\0`).update(fs.readFileSync(abs));
    }
  };
  walk(dir);
  return hash.digest('hex');
}

/**
 * The copy of `sample` at `play` that `npm start` opens: made when missing or when `fresh`, kept
 * otherwise (with a note when `sample` changed since, e.g. after a pull). The copy gets a git
 * repository of its own, with the sample as its first commit, so that git (Create Worktree, the
 * diff @loom /review reads) stops there. Returns what was done, for the message.
 *
 * @param {{ sample: string, play: string, fresh?: boolean }} o
 * @returns {{ made: boolean, outdated: boolean }}
 */
function prepareSample({ sample, play, fresh = false }) {
  const digestFile = `${play}.sha256`;
  const digest = treeDigest(sample);
  if (!fresh && fs.existsSync(play)) {
    const copied = fs.existsSync(digestFile) ? fs.readFileSync(digestFile, 'utf8').trim() : '';
    return { made: false, outdated: copied !== digest };
  }
  fs.rmSync(play, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(play), { recursive: true });
  fs.cpSync(sample, play, { recursive: true });
  const git = (...args) => spawnSync('git', ['-c', 'user.name=Loom sample', '-c', 'user.email=sample@loom.invalid', '-c', 'init.defaultBranch=main', ...args], { cwd: play, stdio: 'ignore' });
  // Without git the copy is still a loom repository; only the git features have nothing to work on.
  if (git('init', '-q').status === 0) {
    git('add', '-A');
    git('commit', '-q', '--no-gpg-sign', '-m', 'The Loom sample workspace');
  }
  fs.writeFileSync(digestFile, `${digest}\n`);
  return { made: true, outdated: false };
}

function hasDesktopCode() {
  if (process.env.LOOM_START_CODE_SERVER === '1') return false;
  return spawnSync('sh', ['-c', 'command -v code'], { stdio: 'ignore' }).status === 0;
}

function startDesktop() {
  console.log(`Opening ${path.relative(ROOT, PLAY)}/ in VS Code with the extension from ${ROOT}`);
  const r = spawnSync('code', [`--extensionDevelopmentPath=${ROOT}`, PLAY], { stdio: 'inherit' });
  return r.status ?? 1;
}

/**
 * Makes <extensionsDir>/<publisher>.<name>-<version> a symlink to the repository and records it
 * in the dir's extensions.json (VS Code loads only the extensions listed there), replacing any
 * earlier link of this extension, e.g. one for an older version.
 */
function linkExtension(extensionsDir) {
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const id = `${manifest.publisher}.${manifest.name}`;
  const folder = `${id}-${manifest.version}`;
  fs.mkdirSync(extensionsDir, { recursive: true });

  for (const entry of fs.readdirSync(extensionsDir)) {
    if (entry.startsWith(`${id}-`)) fs.rmSync(path.join(extensionsDir, entry), { force: true }); // a symlink: unlinked only
  }
  fs.symlinkSync(ROOT, path.join(extensionsDir, folder), 'dir');

  const listFile = path.join(extensionsDir, 'extensions.json');
  const list = fs.existsSync(listFile) ? JSON.parse(fs.readFileSync(listFile, 'utf8')) : [];
  const others = list.filter((e) => e.identifier?.id?.toLowerCase() !== id.toLowerCase());
  others.push({
    identifier: { id },
    version: manifest.version,
    location: { $mid: 1, scheme: 'file', path: path.join(extensionsDir, folder) },
    relativeLocation: folder,
  });
  fs.writeFileSync(listFile, JSON.stringify(others));

  // An earlier "Uninstall" leaves the extension marked obsolete; VS Code would then drop it.
  const obsoleteFile = path.join(extensionsDir, '.obsolete');
  if (fs.existsSync(obsoleteFile)) {
    const obsolete = JSON.parse(fs.readFileSync(obsoleteFile, 'utf8'));
    for (const key of Object.keys(obsolete)) if (key.toLowerCase().startsWith(`${id.toLowerCase()}-`)) delete obsolete[key];
    fs.writeFileSync(obsoleteFile, JSON.stringify(obsolete));
  }
  return id;
}

/**
 * Starts code-server on `target` (a folder) with this repository linked into `extensionsDir` as
 * an installed extension (see linkExtension), without the smoke-test driver, so the workbench
 * behaves as for a user (toasts included). Shared by `npm start` and test/ui/smoke.test.js.
 * Resolves once code-server answers, with the server handle (stop() kills its process group),
 * the workbench URL and the extension id; on a startup failure, stops it and throws.
 *
 * @param {object} o
 * @param {string} o.target         the folder to open
 * @param {string} o.stateDir       code-server's config, logs, XDG dirs and (by default) profile
 * @param {string} [o.extensionsDir] default <stateDir>/extensions
 * @param {string} [o.userDataDir]   default <stateDir>/user-data
 * @param {number} [o.port]          default a free port
 * @param {Record<string, string>} [o.env] extra environment for code-server's extension host
 */
async function serveWithExtension({ target, stateDir, extensionsDir, userDataDir, port, env }) {
  const cs = require('../test/vscode/codeServer');
  cs.ensureInstalled();
  extensionsDir = extensionsDir || path.join(stateDir, 'extensions');
  const id = linkExtension(extensionsDir);
  fs.rmSync(path.join(stateDir, 'code-server.log'), { force: true });
  const server = cs.startCodeServer({
    port: port || (await cs.freePort()),
    stateDir,
    userDataDir: userDataDir || path.join(stateDir, 'user-data'),
    extensionsDir,
    env,
  });
  try {
    await cs.waitUntilReady(server);
  } catch (e) {
    printLogTail(server.logFile);
    await server.stop();
    throw e;
  }
  return { server, url: cs.workbenchUrl(server, { target }), id };
}

async function startCodeServer() {
  const port = process.env.PORT ? Number(process.env.PORT) : undefined;
  let started;
  try {
    started = await serveWithExtension({ target: PLAY, stateDir: STATE_DIR, port });
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  }
  const { server, url, id } = started;

  let stopping = false;
  const stop = async (code) => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping code-server...');
    await server.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => stop(0));
  process.on('SIGTERM', () => stop(0));
  process.on('SIGHUP', () => stop(0));
  process.on('exit', () => server.killNow()); // last resort: never leave code-server behind
  server.proc.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(`code-server exited unexpectedly (${signal || `code ${code}`}); log: ${server.logFile}`);
    printLogTail(server.logFile);
    stop(1);
  });

  console.log(
    [
      '',
      `VS Code (code-server) is serving ${path.relative(ROOT, PLAY)}/ with ${id} loaded from ${ROOT}`,
      '',
      `  Open: ${url}`,
      '',
      'After rebuilding (npm run build), run "Developer: Reload Window" in VS Code.',
      `Logs: ${server.logFile}`,
      'Press Ctrl+C to stop.',
    ].join('\n'),
  );
  // Stay alive: code-server runs as our child until Ctrl+C.
}

function printLogTail(file, lines = 20) {
  try {
    const tail = fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines);
    console.error(tail.map((l) => `  | ${l}`).join('\n'));
  } catch {
    /* no log */
  }
}

async function main() {
  if (!fs.existsSync(SAMPLE)) {
    console.error(`npm start: the sample workspace ${SAMPLE} does not exist yet; nothing to open.`);
    process.exit(1);
  }
  const unknown = process.argv.slice(2).filter((a) => a !== '--fresh');
  if (unknown.length) {
    console.error(`npm start: unknown argument ${unknown.join(' ')} (npm start -- --fresh starts over from sample/)`);
    process.exit(2);
  }
  const play = path.relative(ROOT, PLAY);
  const { made, outdated } = prepareSample({ sample: SAMPLE, play: PLAY, fresh: process.argv.includes('--fresh') });
  console.log(
    made
      ? `A fresh copy of sample/ is at ${play}/: play there freely, sample/ stays as committed (npm start -- --fresh starts over).`
      : `Opening your copy of the sample, ${play}/, as you left it (npm start -- --fresh starts over from sample/).`,
  );
  if (outdated) console.log('sample/ has changed since the copy was made: npm start -- --fresh to take the new one (your copy is replaced).');
  if (hasDesktopCode()) process.exit(startDesktop());
  await startCodeServer();
}

module.exports = { linkExtension, prepareSample, serveWithExtension };

if (require.main === module) {
  main().catch((e) => {
    console.error(`npm start: ${e instanceof Error ? e.message : e}`);
    process.exit(1);
  });
}
