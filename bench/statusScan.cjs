// Child process of the benchmark (plain JavaScript, so no TypeScript loader skews it): measures
// in a fresh process either the floor (read every file of the spec directories and JSON.parse
// the JSON ones) or `status --json` through the bundled CLI, and prints the time and the peak
// memory as one JSON line.
'use strict';
const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const [mode, root] = process.argv.slice(2);

function floor() {
  let bytes = 0;
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else {
        const text = readFileSync(p, 'utf8');
        bytes += text.length;
        if (e.name.endsWith('.json')) JSON.parse(text);
      }
    }
  };
  walk(join(root, 'specs'));
  walk(join(root, '.loom'));
  return bytes;
}

// Loaded as bin/loom-vscode.js loads it (with V8's code cache), so this is what a user waits for.
async function status() {
  const { cli, saveCache } = require(join(__dirname, '..', 'bin', 'loadCli.js')).loadCli(join(__dirname, '..', 'dist', 'cli.js'));
  let size = 0;
  const code = await cli.main(['status', '--json', '--cwd', root], { out: (t) => (size += t.length), err: (t) => process.stderr.write(t) });
  if (code !== 0) throw new Error(`status exited ${code}`);
  saveCache();
  return size;
}

(async () => {
  const start = process.hrtime.bigint();
  const result = mode === 'floor' ? floor() : await status();
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const cpu = process.cpuUsage();
  // cpuMs (user + system, the whole process) varies less than ms on a busy machine.
  process.stdout.write(`${JSON.stringify({ ms, cpuMs: (cpu.user + cpu.system) / 1000, result, peakMB: process.resourceUsage().maxRSS / 1024 })}\n`);
})();
