import { statSync } from 'node:fs';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { directoryCacheStore, SpecCache } from '../../core/specdir/specCache';

/**
 * The per-spec parse cache of the extension, in its own storage (the workspace's storage, else
 * the global one; never the repository). A cache written by another build of the extension is
 * rebuilt: the version includes the bundle's size and modification time. Cache files are written
 * a moment after a load, so the first rows of the tree never wait for them.
 */
export function extensionSpecCache(context: vscode.ExtensionContext): SpecCache {
  const storage = (context.storageUri ?? context.globalStorageUri).fsPath;
  return new SpecCache(directoryCacheStore(join(storage, 'spec-cache')), `${String(context.extension.packageJSON.version ?? '')}+${bundleStamp()}`, { writeDelayMs: 2000 });
}

function bundleStamp(): string {
  try {
    const st = statSync(__filename);
    return `${st.size}-${st.mtimeMs}`;
  } catch {
    return 'unknown';
  }
}
