import { join } from 'node:path';
import { userCacheFolder } from '../userCacheFolder';
import { loadWithCodeCache } from './codeCacheLoader';

/**
 * How the extension's bundle loads a library it keeps in dist/vendor (scripts/build.mjs,
 * besideBundle): with V8's code cache, as the bundle itself is loaded. Compiled anew each time,
 * zod alone took 200–250 ms of the host's thread while the first rows were read; from the cache,
 * a fraction of that. The cache is written a while after the library is first loaded, so it holds
 * the library's functions the extension ran meanwhile (its schemas' parsers), not only its top
 * level; the next start reads them compiled.
 */
const SAVE_AFTER_MS = 10_000;

export interface VendorPlace {
  /** The code caches' folder; none: compiled without a cache. */
  folder?: string;
  /** The folder that holds vendor/: dist/, where the extension's bundle is (its __dirname). */
  dist?: string;
  saveAfterMs?: number;
}

export function loadVendor(name: string, { folder = userCacheFolder(), dist = __dirname, saveAfterMs = SAVE_AFTER_MS }: VendorPlace = {}): unknown {
  const loaded = loadWithCodeCache(join(dist, 'vendor', `${name}.js`), folder);
  if (!loaded.cached && folder) setTimeout(loaded.save, saveAfterMs).unref();
  return loaded.exports;
}
