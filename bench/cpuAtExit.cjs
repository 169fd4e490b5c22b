// Preloaded (`node --require`) into each process bench: status-scan and status-cold time: as the
// process exits, writes the CPU time it used (user + system, every thread of it, ms) and its peak
// memory (MB) to LOOM_BENCH_CPU_OUT. The same for loom's CLI, ours and the floor, whatever each does inside.
'use strict';
const { writeFileSync } = require('node:fs');

const out = process.env.LOOM_BENCH_CPU_OUT;
if (out) {
  process.on('exit', () => {
    const { user, system } = process.cpuUsage();
    writeFileSync(out, JSON.stringify({ cpuMs: (user + system) / 1000, peakMB: process.resourceUsage().maxRSS / 1024 }));
  });
}
