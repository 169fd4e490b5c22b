import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

// A worker process's entry (bundled as dist/codeCacheLoader.js): runs the bundle named by its
// first argument with V8's code cache kept in the folder named by its second, as VS Code does for
// extensions and bin/loadCli.js for the CLI. The look's process starts with every window, at the
// lowest priority while the window paints: compiling its 1.6 MB bundle again each time was a
// good part of the wait for its first result. The cache is written when the process exits, so it
// holds what the run compiled too; a cache of another build or Node is ignored, and rewritten.

function cacheFile(bundle: string, folder: string): string {
  const st = statSync(bundle);
  return join(folder, `${basename(bundle, '.js')}-${process.version}-${st.size}-${Math.round(st.mtimeMs)}.v8`);
}

function save(script: Script, bundle: string, folder: string, file: string): void {
  try {
    mkdirSync(folder, { recursive: true });
    // Caches of earlier builds are of no use any more.
    const prefix = `${basename(bundle, '.js')}-`;
    for (const old of readdirSync(folder)) if (old.startsWith(prefix) && old.endsWith('.v8') && join(folder, old) !== file) rmSync(join(folder, old), { force: true });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, script.createCachedData());
    renameSync(temp, file);
  } catch {
    // A cache that cannot be written only makes the next start slower.
  }
}

function run(bundle: string, folder: string): void {
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
    // Anything unexpected: the bundle as Node loads it.
    createRequire(__filename)(bundle);
    return;
  }
  if (!cachedData || script.cachedDataRejected) process.once('exit', () => save(script, bundle, folder, file));
  const module = { exports: {} };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
}

const [bundle, folder] = process.argv.slice(2);
if (bundle && folder) run(bundle, folder);
