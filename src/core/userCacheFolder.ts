import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * loom-vscode's folder in the user's cache folder (never the repository): `$LOOM_VSCODE_CACHE_DIR`,
 * else `loom-vscode` in `$XDG_CACHE_HOME` (`~/.cache`), `~/Library/Caches` or `%LOCALAPPDATA%`.
 * Undefined when `LOOM_VSCODE_CACHE=0` turns the caches off. The CLI keeps its per-spec caches
 * and the code caches of its bundles there; the extension the code caches of its bundles, which
 * are the same for every window and profile (its per-spec caches are in its own storage).
 */
export function userCacheFolder(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.LOOM_VSCODE_CACHE === '0') return undefined;
  return env.LOOM_VSCODE_CACHE_DIR || join(userCacheRoot(env), 'loom-vscode');
}

function userCacheRoot(env: NodeJS.ProcessEnv): string {
  if (process.platform === 'win32') return env.LOCALAPPDATA || join(homedir(), 'AppData', 'Local');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Caches');
  return env.XDG_CACHE_HOME || join(homedir(), '.cache');
}
