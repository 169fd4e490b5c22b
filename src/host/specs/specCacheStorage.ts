import { statSync } from 'node:fs';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import type { SpecEvaluation } from '../../core/port/views';
import { EvaluationCache, directoryCacheStore, SpecCache } from '../../core/port/specCache';
import { userCacheFolder } from '../../core/port/userCache';
import type { SpecLooks } from './folderSpecs';

/** The extension's per-spec caches, and how the look's worker process uses them. */
export interface SpecCaches {
  parses: SpecCache;
  summaries: SpecCache;
  evaluations: EvaluationCache<SpecEvaluation>;
  looks: SpecLooks;
}

/**
 * The per-spec parse cache of the extension, in its global storage (never the repository): one
 * file per spec directory, named by a hash of its absolute path, so a folder opened in another
 * window or workspace finds its cache too (a workspace's own storage can change from one session
 * to the next). A cache written by another build of the extension is rebuilt: the version
 * includes the bundle's size and modification time. Cache files are written a moment after a
 * load, so the first rows of the tree never wait for them; what they hold is not kept in memory
 * besides (the snapshots hold it), so a reload of a changed spec reads its one cache file again.
 * Each spec's evaluation (evaluationCache.ts) is kept beside its parses, valid while every file
 * it read is unchanged, in the same display language, by the same build.
 */
export function extensionSpecCache(context: vscode.ExtensionContext): SpecCaches {
  const dir = cacheDir(context);
  const store = directoryCacheStore(dir);
  const version = `${String(context.extension.packageJSON.version ?? '')}+${bundleStamp()}`;
  return {
    // The look at every spec runs in a worker process, reading and writing the same caches.
    // Its bundle's code cache is the same for every window and profile: in the user's cache folder, beside the extension's own.
    looks: { cache: { dir, version }, codeCacheDir: userCacheFolder() },
    parses: new SpecCache(store, version, { writeDelayMs: 2000, remember: false }),
    // The parse of each spec's pipeline.state.json its list row needs, in a small file of its own: a reload reads the rows without parsing them.
    summaries: new SpecCache(store, version, { writeDelayMs: 2000, remember: false, kind: 'summary' }),
    // Beside each spec's parses, in the same folder: its last look (Problems entries, group, stale marks) and everything that look read.
    // Written a moment later too: after a reload, the looks at the specs that changed meanwhile are what the window waits for.
    evaluations: new EvaluationCache<SpecEvaluation>(store, version, { writeDelayMs: 2000 }),
  };
}

const cacheDir = (context: vscode.ExtensionContext): string => join(context.globalStorageUri.fsPath, 'spec-cache');

function bundleStamp(): string {
  try {
    const st = statSync(__filename);
    return `${st.size}-${st.mtimeMs}`;
  } catch {
    return 'unknown';
  }
}
