import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { SpecStatus } from '../core/repository/specPipeline';
import { EvaluationCache } from '../core/specdir/evaluationCache';
import { directoryCacheStore, SpecCache } from '../core/specdir/specCache';
import { userCacheFolder } from '../core/userCacheFolder';

/**
 * The CLI's per-spec caches, in the user's cache folder (userCacheFolder: never in the
 * repository). `LOOM_VSCODE_CACHE=0` turns them off. A cache written by another build of
 * the CLI is rebuilt: the version includes the bundle's own size and modification time.
 * `parses`: each file's parse; `statuses`: each spec's status, with everything it read.
 */
export function cliSpecCaches(version: string, env: NodeJS.ProcessEnv = process.env): { parses?: SpecCache; statuses?: EvaluationCache<SpecStatus> } {
  const folder = userCacheFolder(env);
  if (!folder) return {};
  const store = directoryCacheStore(join(folder, 'specs'));
  const built = `${version}+${buildStamp()}`;
  return { parses: new SpecCache(store, built, { remember: false }), statuses: new EvaluationCache<SpecStatus>(store, built, { kind: 'status' }) };
}

function buildStamp(): string {
  try {
    const st = statSync(__filename);
    return `${st.size}-${st.mtimeMs}`;
  } catch {
    return 'unknown';
  }
}
