// Bundles the two webviews to stable names the host loads:
// dist/webview/dashboard.{js,css} and dist/webview/matrix.{js,css}.
//   --dev            readable output with source maps
//   --outdir <dir>   somewhere else (the browser tests build into their own temp folder)
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export async function buildWebviews({ outdir = 'dist/webview', dev = false } = {}) {
  await build({
    absWorkingDir: root,
    entryPoints: { dashboard: 'webview-ui/dashboard/main.ts', matrix: 'webview-ui/matrix/main.ts' },
    outdir,
    bundle: true,
    // One classic script per page: it loads with the page's nonce and needs no module loader.
    format: 'iife',
    platform: 'browser',
    target: ['chrome120'],
    minify: !dev,
    sourcemap: dev ? 'linked' : false,
    legalComments: 'none',
    tsconfig: 'webview-ui/tsconfig.json',
    logLevel: 'warning',
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--outdir');
  await buildWebviews({ dev: args.includes('--dev'), ...(at >= 0 ? { outdir: args[at + 1] } : {}) });
}
