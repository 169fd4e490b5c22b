// `npm run lint`: ESLint (rules and layers, eslint.config.mjs), dependency-cruiser (import cycles,
// .dependency-cruiser.cjs) and Prettier's check (.prettierrc.json). All three run even when one
// fails, so one run shows every problem. Paths given as arguments limit the three to them, without
// the caches (those belong to whole-tree runs).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const paths = process.argv.slice(2);
const whole = paths.length === 0;
const cache = (...args) => (whole ? args : []);

const checks = [
  ['eslint', [...cache('--cache', '--cache-location', 'node_modules/.cache/eslint/'), ...(whole ? ['.'] : paths)]],
  ['depcruise', ['--config', '.dependency-cruiser.cjs', ...cache('--cache', 'node_modules/.cache/dependency-cruiser'), ...(whole ? ['src', 'webview-ui'] : paths)]],
  ['prettier', ['--check', '--log-level', 'warn', ...cache('--cache'), ...(whole ? ['.'] : paths)]],
];

const failed = [];
for (const [tool, args] of checks) {
  const bin = join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${tool}.cmd` : tool);
  const r = spawnSync(bin, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.status !== 0) failed.push(tool);
}
if (failed.length) {
  console.error(`lint: ${failed.join(', ')} found problems`);
  process.exit(1);
}
