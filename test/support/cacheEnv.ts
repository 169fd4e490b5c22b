/**
 * The CLI's cache settings (LOOM_VSCODE_CACHE_DIR, LOOM_VSCODE_CACHE) as a test found them, and a
 * way to put them back: the tests of a folder share one process (scripts/run-unit-tests.mjs).
 */
export function keepCacheEnv(): () => void {
  const kept = { LOOM_VSCODE_CACHE_DIR: process.env.LOOM_VSCODE_CACHE_DIR, LOOM_VSCODE_CACHE: process.env.LOOM_VSCODE_CACHE };
  return () => {
    for (const [name, value] of Object.entries(kept)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}
