import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { directoryCacheStore, SpecCache } from '../core/specdir/specCache';

/**
 * The CLI's per-spec parse cache, in the user's cache folder (never in the repository):
 * `$LOOM_VSCODE_CACHE_DIR`, else `$XDG_CACHE_HOME/loom-vscode` (`~/.cache`, `~/Library/Caches`
 * or `%LOCALAPPDATA%`). `LOOM_VSCODE_CACHE=0` turns it off. A cache written by another build of
 * the CLI is rebuilt: the version includes the bundle's own size and modification time.
 */
export function cliSpecCache(version: string, env: NodeJS.ProcessEnv = process.env): SpecCache | undefined {
  if (env.LOOM_VSCODE_CACHE === '0') return undefined;
  const base = env.LOOM_VSCODE_CACHE_DIR || join(userCacheRoot(env), 'loom-vscode');
  return new SpecCache(directoryCacheStore(join(base, 'specs')), `${version}+${buildStamp()}`, { remember: false });
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
