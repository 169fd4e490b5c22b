// Evaluated first: the activation benchmark measures from here.
import { bundleStartedAt, threadAtStart } from './host/activationClock';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { loadWithCodeCache } from './core/port/codeCache';
import { userCacheFolder } from './core/port/userCache';
import { activatedWithWindow } from './host/activatedWithWindow';
import { standIn } from './host/standIn';
import { threadClock } from './host/threadClock';
import type { LoadClock, LoomApi } from './extension';
import { hostEntryMessages } from './core/port/entry';
import { languageOfLocale } from './shared/messages/language';

// The extension's entry (dist/extension.js): a few lines that load the extension itself
// (dist/extensionMain.js, 1 MB; the libraries it loads on first use wait in dist/vendor) with
// V8's code cache, kept in the user's cache folder for every window and profile. Compiling the
// bundle was the larger part of activation; with the cache, V8 reads the code it compiled last
// time instead. The first window after an install or an update compiles it and writes the cache
// right after its activate() returned: the cache then holds what activation runs, and no more
// (one written later, with all a window had compiled, was 1.5–1.8 MB instead of 650 KB and took
// twice as long to read; one written before activate() left its functions to be compiled at each
// start).
//
// When the window opens on a loom repository, activate() does not wait for that: VS Code starts
// the window's extensions one after the other on the host's thread, and the bundle's 40–50 ms
// (more while the window's other processes keep both CPUs busy) would hold up the rest. It
// registers a stand-in for each command (src/host/standIn.ts) and returns; the extension starts
// on the host's next turn, or at once if a command or the API is used first.

type Extension = typeof import('./extension');

let extension: Extension | undefined;
let codeCache = false;

export function activate(context: vscode.ExtensionContext): LoomApi {
  const clock: LoadClock = { bundleStartedAt, bundleLoadedAt, activateStartedAt: performance.now(), threadAtStart, threadAtLoaded, threadAtActivate: threadClock(), deferred: false };
  const start = () => startExtension(context, clock);
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  if (!activatedWithWindow(folders)) return start();

  const late = standIn<LoomApi>(commandIds(context), vscode.commands, start);
  context.subscriptions.push({ dispose: () => late.registered.forEach((d) => d.dispose()) });
  setImmediate(() => {
    try {
      late.start();
    } catch (e) {
      void vscode.window.showErrorMessage(couldNotStart(e instanceof Error ? e.message : String(e)));
    }
  });
  Object.assign(clock, { deferred: true, activatedAt: performance.now(), threadAtActivated: threadClock() });
  return late.api;
}

/**
 * The catalog's sentence, put together here: the catalog and its formatter are in the bundle that
 * could not start, and this file stays a few lines (its one parameter is a plain `{message}`).
 */
function couldNotStart(message: string): string {
  return hostEntryMessages['host.entry.couldNotStart'][languageOfLocale(vscode.env.language)].replace('{message}', () => message);
}

/** The commands package.json contributes: each has a stand-in until the extension has started. */
function commandIds(context: vscode.ExtensionContext): string[] {
  const contributed = (context.extension.packageJSON as { contributes?: { commands?: { command: string }[] } }).contributes?.commands ?? [];
  return contributed.map((c) => c.command);
}

/** Loads the extension's bundle (once per host) and activates it; writes the code cache after. */
function startExtension(context: vscode.ExtensionContext, clock: LoadClock): LoomApi {
  clock.extensionStartedAt = performance.now();
  // No folder (LOOM_VSCODE_CACHE=0): compiled without a cache.
  const loaded = extension ? undefined : loadWithCodeCache(join(__dirname, 'extensionMain.js'), userCacheFolder());
  if (loaded) [extension, codeCache] = [loaded.exports as Extension, loaded.cached];
  Object.assign(clock, { extensionLoadedAt: performance.now(), codeCache });
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
