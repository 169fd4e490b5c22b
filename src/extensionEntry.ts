// Evaluated first: the activation benchmark measures from here.
import { bundleStartedAt } from './host/activationClock';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { loadWithCodeCache } from './core/threads/codeCacheLoader';
import { userCacheFolder } from './core/userCacheFolder';
import type { LoomApi } from './extension';

// The extension's entry (dist/extension.js): a few lines that load the extension itself
// (dist/extensionMain.js, 2 MB) with V8's code cache, kept in the user's cache folder for every
// window and profile. Compiling the bundle was most of the time activation took; with the
// cache, V8 reads the code it compiled last time instead. The first window after an install or
// an update compiles it and writes the cache once it has settled.

type Extension = typeof import('./extension');

/** Long enough for the first rows, the look and the Problems panel: what they compiled is kept too. */
const SAVE_AFTER_MS = 15_000;

let extension: Extension | undefined;
let codeCache = false;
let saveCodeCache = () => undefined as void;

function loadExtension(): Extension {
  const bundle = join(__dirname, 'extensionMain.js');
  const folder = userCacheFolder();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  if (!folder) return require(bundle) as Extension;
  const loaded = loadWithCodeCache(bundle, folder);
  codeCache = loaded.cached;
  saveCodeCache = () => {
    saveCodeCache = () => undefined;
    loaded.save();
  };
  return loaded.exports as Extension;
}

export function activate(context: vscode.ExtensionContext): LoomApi {
  const activateStartedAt = performance.now();
  extension ??= loadExtension();
  const api = extension.activate(context, { bundleStartedAt, bundleLoadedAt, activateStartedAt, codeCache });
  const timer = setTimeout(() => saveCodeCache(), SAVE_AFTER_MS);
  timer.unref?.();
  context.subscriptions.push({ dispose: () => (clearTimeout(timer), saveCodeCache()) });
  return api;
}

export function deactivate(): void {
  extension?.deactivate();
}

/** The entry's last line: its own loading is bundleStartedAt → here. */
const bundleLoadedAt = performance.now();
