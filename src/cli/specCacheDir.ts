import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { SpecStatus, StatusDetail } from '../core/port/specs';
import { CompactCacheStore } from '../core/port/tools';
import { EvaluationCache, cacheKey, directoryCacheStore, SpecCache } from '../core/port/specCache';
import { userCacheFolder } from '../core/port/userCache';

/**
 * The CLI's per-spec parse cache, in the user's cache folder (userCacheFolder: never in the
 * repository). `LOOM_VSCODE_CACHE=0` turns it off. A cache written by another build of the CLI is
 * rebuilt: the version includes the bundle's own size and modification time.
 */
export function cliParseCache(version: string, env: NodeJS.ProcessEnv = process.env): SpecCache | undefined {
  const folder = userCacheFolder(env);
  if (!folder) return undefined;
  return new SpecCache(directoryCacheStore(join(folder, 'specs')), builtVersion(version), { remember: false });
}

/** The statuses `loom-vscode status` keeps, and `save()`, which writes what changed (once the answer is printed). */
export interface CliStatusCache {
  statuses: EvaluationCache<SpecStatus>;
  save(): void;
}

/**
 * Every spec's status with everything it read, for `loom-vscode status` over a whole repository:
 * one file per repository and display language (`status/<hash>.txt` in the user's cache folder,
 * CompactCacheStore), written once per run, and only when a status changed. A status run visits
 * every spec: the statuses of spec directories that are gone are dropped as it writes. Undefined
 * when `LOOM_VSCODE_CACHE=0` turns the caches off.
 */
export function cliStatusCache(version: string, root: string, language: string, detail: StatusDetail = 'summary', env: NodeJS.ProcessEnv = process.env): CliStatusCache | undefined {
  const folder = userCacheFolder(env);
  if (!folder) return undefined;
  // One file per detail too: a full status and a summary are two answers about the same spec.
  const store = new CompactCacheStore(join(folder, 'status', `${cacheKey(`${root}\0${language}${detail === 'full' ? '\0full' : ''}`)}.txt`));
  return { statuses: new EvaluationCache<SpecStatus>(store, builtVersion(version), { kind: 'status' }), save: () => store.save({ prune: true }) };
}

function builtVersion(version: string): string {
  try {
    const st = statSync(__filename);
    return `${version}+${st.size}-${st.mtimeMs}`;
  } catch {
    return `${version}+unknown`;
  }
}
