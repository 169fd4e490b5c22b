// Preloaded (`node --require`) into each process bench: status-cold times: as the process exits,
// writes the CPU time it used (user + system, every thread of it, ms) to LOOM_BENCH_CPU_OUT. The
// same for loom's CLI, ours and the floor, whatever each does inside.
'use strict';
const { writeFileSync } = require('node:fs');

const out = process.env.LOOM_BENCH_CPU_OUT;
if (out) {
  process.on('exit', () => {
    const { user, system } = process.cpuUsage();
    writeFileSync(out, String((user + system) / 1000));
  });
}
