// Loads the bundled CLI (dist/cli.js) with V8's code cache (dist/codeCacheLoader.js, which the
// look's worker process starts with too): the bundle is compiled once per build and node version,
// and later runs skip parsing and compiling it. The cache lives beside the per-spec cache in the
// user's cache folder (LOOM_VSCODE_CACHE=0 turns both off, LOOM_VSCODE_CACHE_DIR moves them).
// Anything unexpected falls back to require().
'use strict';
const path = require('path');
const os = require('os');

function cacheRoot(env) {
  if (env.LOOM_VSCODE_CACHE_DIR) return env.LOOM_VSCODE_CACHE_DIR;
  if (process.platform === 'win32') return path.join(env.LOCALAPPDATA || path.join(os.homedir(), 'AppData', 'Local'), 'loom-vscode');
  if (process.platform === 'darwin') return path.join(os.homedir(), 'Library', 'Caches', 'loom-vscode');
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'loom-vscode');
}

/** Returns the CLI module and `saveCache()`, to call once the command ran (the cache then holds the functions it compiled). */
function loadCli(bundle, env = process.env) {
  if (env.LOOM_VSCODE_CACHE === '0') return { cli: require(bundle), saveCache() {} };
  let loader;
  try {
    loader = require(path.join(path.dirname(bundle), 'codeCacheLoader.js'));
  } catch {
    return { cli: require(bundle), saveCache() {} };
  }
  const { exports, save } = loader.loadWithCodeCache(bundle, cacheRoot(env));
  return { cli: exports, saveCache: save };
}

module.exports = { loadCli };
