import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

// Where the callers keep their caches: bin/loadCli.js (plain JavaScript) takes it from this bundle.
export { userCacheFolder } from '../userCacheFolder';

// Runs a bundle with V8's code cache kept in a folder, as VS Code does for extensions: it is
// compiled once per build and Node version, and later starts skip parsing and compiling it.
// Bundled as dist/codeCacheLoader.js, beside the bundles it loads, for three callers:
// - bin/loadCli.js requires it for the CLI (dist/cli.js), and saves once the command ran;
// - the extension's entry (src/extensionEntry.ts, which bundles it) loads the extension with it
//   (dist/extensionMain.js), and saves right after the bundle's top level ran;
// - the look's worker process starts with it (its bundle as first argument, the folder as
//   second): it starts with every window, at the lowest priority while the window paints, and
//   compiling its 1.6 MB bundle again each time was a good part of the wait for its first
//   result. That cache is written when the process exits, so it holds what the run compiled.
// A cache of another build or Node is ignored, and rewritten.

/**
 * A cache is V8's, for one runtime: named by the Node and V8 versions (VS Code's Electron and a
 * Node of the same version have different V8s), then the bundle's size and modification time.
 */
const runtimePrefix = (bundle: string) => `${basename(bundle, '.js')}-${process.version}-v8-${process.versions.v8}-`;

function cacheFile(bundle: string, folder: string): string {
  const st = statSync(bundle);
  return join(folder, `${runtimePrefix(bundle)}${st.size}-${Math.round(st.mtimeMs)}.v8`);
}

function save(script: Script, bundle: string, folder: string, file: string): void {
  try {
    mkdirSync(folder, { recursive: true });
    // Caches of earlier builds are of no use any more; another runtime's (VS Code's and a
    // terminal's Node sharing the folder) are left to it, or they would replace each other.
    const prefix = runtimePrefix(bundle);
    for (const old of readdirSync(folder)) if (old.startsWith(prefix) && old.endsWith('.v8') && join(folder, old) !== file) rmSync(join(folder, old), { force: true });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, script.createCachedData());
    renameSync(temp, file);
  } catch {
    // A cache that cannot be written only makes the next start slower.
  }
}

/**
 * Runs `bundle` (CommonJS) with the code cache in `folder`, and returns its exports, whether V8
 * took the cache (`cached`), and `save()`, which writes the cache when there was none or V8
 * rejected it (call it once the bundle has run: the cache then holds the functions it compiled).
 * Anything unexpected: the bundle as Node loads it.
 */
export function loadWithCodeCache(bundle: string, folder: string): { exports: unknown; cached: boolean; save: () => void } {
  let script: Script;
  let file: string;
  let cachedData: Buffer | undefined;
  try {
    file = cacheFile(bundle, folder);
    try {
      cachedData = readFileSync(file);
    } catch {
      cachedData = undefined;
    }
    script = new Script(Module.wrap(readFileSync(bundle, 'utf8')), { filename: bundle, cachedData });
  } catch {
    return { exports: createRequire(__filename)(bundle), cached: false, save: () => undefined };
  }
  const m = new Module(bundle);
  m.filename = bundle;
  (script.runInThisContext() as (...args: unknown[]) => void).call(m.exports, m.exports, createRequire(bundle), m, bundle, dirname(bundle));
  m.loaded = true;
  const stale = !cachedData || script.cachedDataRejected;
  return { exports: m.exports, cached: !stale, save: () => stale && save(script, bundle, folder, file) };
}

// Started as a process: the bundle named by the first argument, its cache saved at exit.
if (require.main === module) {
  const [bundle, folder] = process.argv.slice(2);
  if (bundle && folder) {
    const { save: saveAtExit } = loadWithCodeCache(bundle, folder);
    process.once('exit', saveAtExit);
  }
}
