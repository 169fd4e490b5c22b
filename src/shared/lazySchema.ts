import type { z } from 'zod';
import { lazily } from './lazily';

/**
 * A zod schema built on its first use, with zod itself loaded then. zod's own module costs the
 * extension's load ~5 ms in plain Node, and activation validates nothing (see lazily): so the
 * modules that hold schemas import only zod's types (`import type { z } from 'zod'`) and build
 * with the `z` this passes them. A value import of zod in any module of the extension's bundle
 * would load it with the bundle again.
 */
export function lazySchema<T>(build: (zod: typeof z) => T): () => T {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a require inside a function is what defers the load; esbuild bundles it as it bundles an import
  return lazily(() => build((require('zod') as typeof import('zod')).z));
}
