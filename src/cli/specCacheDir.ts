import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { SpecStatus } from '../core/repository/specPipeline';
import { isSpecStatus } from '../core/repository/specStatusCache';
import { EvaluationCache } from '../core/specdir/evaluationCache';
import { directoryCacheStore, SpecCache } from '../core/specdir/specCache';

/**
 * The CLI's per-spec caches, in the user's cache folder (never in the repository):
 * `$LOOM_VSCODE_CACHE_DIR`, else `$XDG_CACHE_HOME/loom-vscode` (`~/.cache`, `~/Library/Caches`
 * or `%LOCALAPPDATA%`). `LOOM_VSCODE_CACHE=0` turns them off. A cache written by another build of
 * the CLI is rebuilt: the version includes the bundle's own size and modification time.
 * `parses`: each file's parse; `statuses`: each spec's status, with everything it read.
 */
export function cliSpecCaches(version: string, env: NodeJS.ProcessEnv = process.env): { parses?: SpecCache; statuses?: EvaluationCache<SpecStatus> } {
  if (env.LOOM_VSCODE_CACHE === '0') return {};
  const store = directoryCacheStore(join(env.LOOM_VSCODE_CACHE_DIR || join(userCacheRoot(env), 'loom-vscode'), 'specs'));
  const built = `${version}+${buildStamp()}`;
  return { parses: new SpecCache(store, built, { remember: false }), statuses: new EvaluationCache(store, built, isSpecStatus, { kind: 'status' }) };
}

function userCacheRoot(env: NodeJS.ProcessEnv): string {
  if (process.platform === 'win32') return env.LOCALAPPDATA || join(homedir(), 'AppData', 'Local');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Caches');
  return env.XDG_CACHE_HOME || join(homedir(), '.cache');
}

function buildStamp(): string {
  try {
    const st = statSync(__filename);
    return `${st.size}-${st.mtimeMs}`;
  } catch {
    return 'unknown';
  }
}
