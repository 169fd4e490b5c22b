import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { isAscii } from 'node:buffer';
import Module, { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

// Runs a bundle with V8's code cache kept in a folder, as VS Code does for extensions: it is
// compiled once per build and Node version, and later starts skip parsing and compiling it.
// Bundled as dist/codeCacheLoader.js, beside the bundles it loads, for two callers (the CLI loads
// its bundle without one: it saved no measurable time of a status run, docs/performance.md):
// - the extension's entry (src/extensionEntry.ts, which bundles it) loads the extension with it
//   (dist/extensionMain.js), and saves right after the bundle's top level ran;
// - the look's worker process starts with it (its bundle as first argument, the folder as
//   second): it starts with every window, once the first rows are painted, at the lowest
//   priority, and compiling its 1.6 MB bundle again each time was a good part of the wait for
//   its first result. That cache is written when the process exits, so it holds what the run compiled.
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
 * How a bundle built `wrapped` (scripts/build.mjs) begins: it is the function Node would wrap a
 * CommonJS module in, written out. Compiled as it is, the source V8 gets is the file's own text:
 * Node's wrapping joins it to the wrapper's text, and V8 copies the joined text into a new
 * string of the bundle's size before it compiles (2 MB, 7 ms of a 15 ms load from the cache).
 */
export const BUNDLE_WRAPPER = '(function (exports, require, module, __filename, __dirname) {';

/**
 * The bundle's source, and whether it is `wrapped`. Loom's bundles are ASCII
 * (scripts/asciiBundle.mjs): read as Latin-1, Node hands the bytes to V8 as they are, where
 * reading them as UTF-8 decodes them one by one (about 20 ms for 2 MB). A wrapped bundle is one of
 * them; any other file is read as Latin-1 only if it is ASCII. (V8 takes a code cache only for a
 * source of the same kind as the one it was made from, which the same file always is.)
 */
function readSource(bundle: string): { source: string; wrapped: boolean } {
  const bytes = readFileSync(bundle);
  const wrapped = bytes.subarray(0, BUNDLE_WRAPPER.length).toString('latin1') === BUNDLE_WRAPPER;
  return { source: bytes.toString(wrapped || isAscii(bytes) ? 'latin1' : 'utf8'), wrapped };
}

/** A cache file's bytes, or undefined when it cannot be read. */
function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Runs `bundle` (CommonJS, maybe `wrapped`) with the code cache in `folder`, and returns its
 * exports, whether V8 took the cache (`cached`), and `save()`, which writes the cache when there
 * was none or V8 rejected it (call it once the bundle has run: the cache then holds the functions
 * it compiled). Without a folder, the bundle is compiled and run without a cache. A cache that
 * cannot be read is as no cache.
 */
export function loadWithCodeCache(bundle: string, folder: string | undefined): { exports: unknown; cached: boolean; save: () => void } {
  const { source, wrapped } = readSource(bundle);
  let file: string | undefined;
  let cachedData: Buffer | undefined;
  if (folder) {
    try {
      file = cacheFile(bundle, folder);
    } catch {
      file = undefined;
    }
    cachedData = file ? readCache(file) : undefined;
  }
  const script = new Script(wrapped ? source : Module.wrap(source), { filename: bundle, cachedData });
  const m = new Module(bundle);
  m.filename = bundle;
  (script.runInThisContext() as (...args: unknown[]) => void).call(m.exports, m.exports, createRequire(bundle), m, bundle, dirname(bundle));
  m.loaded = true;
  const stale = !cachedData || script.cachedDataRejected === true;
  return { exports: m.exports, cached: !stale, save: () => folder && file && stale && save(script, bundle, folder, file) };
}

// Started as a process: the bundle named by the first argument, with its cache in the folder
// named by the second (if any), saved at exit.
if (require.main === module) {
  const [bundle, folder] = process.argv.slice(2);
  if (bundle) {
    const { save: saveAtExit } = loadWithCodeCache(bundle, folder || undefined);
    process.once('exit', saveAtExit);
  }
}
