// Evaluated first: the activation benchmark measures from here.
import { bundleStartedAt, threadAtStart } from './host/activationClock';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { loadWithCodeCache } from './core/threads/codeCacheLoader';
import { userCacheFolder } from './core/userCacheFolder';
import { threadClock } from './host/threadClock';
import type { LoomApi } from './extension';

// The extension's entry (dist/extension.js): a few lines that load the extension itself
// (dist/extensionMain.js, 1 MB; the libraries it loads on first use wait in dist/vendor) with
// V8's code cache, kept in the user's cache folder for every window and profile. Compiling the
// bundle was the larger part of activation; with the cache, V8 reads the code it compiled last
// time instead. The first window after an install or an update compiles it and writes the cache
// right after its activate() returned: the cache then holds what activation runs, and no more
// (one written later, with all a window had compiled, was 1.5–1.8 MB instead of 650 KB and took
// twice as long to read; one written before activate() left its functions to be compiled at each
// start).

type Extension = typeof import('./extension');

let extension: Extension | undefined;
let codeCache = false;

export function activate(context: vscode.ExtensionContext): LoomApi {
  const activateStartedAt = performance.now();
  const threadAtActivate = threadClock();
  // No folder (LOOM_VSCODE_CACHE=0): compiled without a cache.
  const loaded = extension ? undefined : loadWithCodeCache(join(__dirname, 'extensionMain.js'), userCacheFolder());
  if (loaded) [extension, codeCache] = [loaded.exports as Extension, loaded.cached];
  const clock = { bundleStartedAt, bundleLoadedAt, activateStartedAt, extensionLoadedAt: performance.now(), codeCache, threadAtStart, threadAtLoaded, threadAtActivate };
  try {
    return extension!.activate(context, clock);
  } finally {
    loaded?.save();
  }
}

export function deactivate(): void {
  extension?.deactivate();
}

/** The entry's last line: its own loading is bundleStartedAt → here. */
const bundleLoadedAt = performance.now();
const threadAtLoaded = threadClock();
