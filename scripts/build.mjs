// Bundles the CLI (plain Node), the extension host (vscode external) and the webviews with esbuild.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { buildWebviews } from './build-webviews.mjs';

const common = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', sourcemap: true, logLevel: 'warning' };
const entries = [
  { entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js' },
  { entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
];
for (const entry of entries) {
  if (!existsSync(entry.entryPoints[0])) continue;
  await build({ ...common, ...entry });
}
await buildWebviews();
