// Loads the bundled CLI (dist/cli.js) with V8's code cache, as VS Code does for extensions: the
// bundle is compiled once per build and node version, and later runs skip parsing and compiling
// it. The cache lives beside the per-spec cache in the user's cache folder (LOOM_VSCODE_CACHE=0
// turns both off, LOOM_VSCODE_CACHE_DIR moves them). Anything unexpected falls back to require().
'use strict';
const fs = require('fs');
const path = require('path');
const os = require('os');
const vm = require('vm');
const Module = require('module');

function cacheRoot(env) {
  if (env.LOOM_VSCODE_CACHE_DIR) return env.LOOM_VSCODE_CACHE_DIR;
  if (process.platform === 'win32') return path.join(env.LOCALAPPDATA || path.join(os.homedir(), 'AppData', 'Local'), 'loom-vscode');
  if (process.platform === 'darwin') return path.join(os.homedir(), 'Library', 'Caches', 'loom-vscode');
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'loom-vscode');
}

/** Returns the CLI module and `saveCache()`, to call once the command ran (the cache then holds the functions it compiled). */
function loadCli(bundle, env = process.env) {
  if (env.LOOM_VSCODE_CACHE === '0') return { cli: require(bundle), saveCache() {} };
  try {
    const source = fs.readFileSync(bundle, 'utf8');
    const st = fs.statSync(bundle);
    const dir = cacheRoot(env);
    const file = path.join(dir, `cli-${process.version}-${st.size}-${Math.round(st.mtimeMs)}.v8`);
    let cachedData;
    try {
      cachedData = fs.readFileSync(file);
    } catch {
      cachedData = undefined;
    }
    const script = new vm.Script(Module.wrap(source), { filename: bundle, cachedData });
    const m = new Module(bundle, module);
    m.filename = bundle;
    m.paths = Module._nodeModulePaths(path.dirname(bundle));
    script.runInThisContext().call(m.exports, m.exports, Module.createRequire(bundle), m, bundle, path.dirname(bundle));
    m.loaded = true;
    const saveCache = () => {
      if (cachedData && !script.cachedDataRejected) return;
      try {
        fs.mkdirSync(dir, { recursive: true });
        // Caches of earlier builds are of no use any more.
        for (const old of fs.readdirSync(dir)) if (/^cli-.*\.v8$/.test(old) && path.join(dir, old) !== file) fs.rmSync(path.join(dir, old), { force: true });
        const temp = `${file}.${process.pid}.tmp`;
        fs.writeFileSync(temp, script.createCachedData());
        fs.renameSync(temp, file);
      } catch {
        // A cache that cannot be written only makes the next start slower.
      }
    };
    return { cli: m.exports, saveCache };
  } catch {
    return { cli: require(bundle), saveCache() {} };
  }
}

module.exports = { loadCli };
