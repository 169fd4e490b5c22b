// Loads the bundled CLI (dist/cli.js) with V8's code cache (dist/codeCacheLoader.js, which the
// look's worker process starts with too): the bundle is compiled once per build and node version,
// and later runs skip parsing and compiling it. The cache lives beside the per-spec cache in the
// user's cache folder (LOOM_VSCODE_CACHE=0 turns both off, LOOM_VSCODE_CACHE_DIR moves them); until
// it is there (a first run on a clone, every CI run), the cache `npm run build` made beside the
// bundle is used (seedCacheFile). Without dist/codeCacheLoader.js beside it, the bundle is require()d.
'use strict';
const path = require('path');

/** Returns the CLI module and `saveCache()`, to call once the command ran (the cache then holds the functions it compiled). */
function loadCli(bundle, env = process.env) {
  let loader;
  try {
    loader = require(path.join(path.dirname(bundle), 'codeCacheLoader.js'));
  } catch {
    return { cli: require(bundle), saveCache() {} };
  }
  // The user's cache folder (src/core/userCacheFolder.ts), or none when LOOM_VSCODE_CACHE=0: the
  // loader then runs the bundle without a cache.
  const { exports, save } = loader.loadWithCodeCache(bundle, loader.userCacheFolder(env), { seed: true });
  return { cli: exports, saveCache: save };
}

module.exports = { loadCli };
