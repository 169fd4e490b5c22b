'use strict';
/**
 * extensionTestsPath of the editor benchmarks (bench/vscodeBench.ts): runs inside the extension
 * host of a real VS Code (code-server), opens the Loom view at once, and writes what it measured
 * to $LOOM_BENCH_OUT as JSON. $LOOM_BENCH_PHASE says what to measure:
 *   baseline   only the empty extension is loaded: its activation, the host's memory without Loom;
 *   cold       Loom on a workspace it has never seen (empty extension storage), then a checkout burst;
 *   warm       Loom again on the same workspace and profile: its per-spec cache is there;
 *   small      Loom on the 10-spec workspace;
 *   floor      the floor extension alone (bench/vscode/floor-extension) on either workspace: Loom's
 *              view with as many rows, from a list made beforehand, to the first rows.
 */
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');

const LOOM = 'loom-vscode.loom-vscode';
const EMPTY = 'loom-bench.loom-bench-empty';
const FLOOR = 'loom-bench.loom-bench-floor';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function until(what, test, timeoutMs = 180_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = test();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

async function activated(id) {
  const ext = vscode.extensions.getExtension(id);
  if (!ext) throw new Error(`${id} is not loaded`);
  return ext.isActive ? ext.exports : await ext.activate();
}

/**
 * Samples the host's memory until `done` resolves; returns the peaks in MB: resident memory, the
 * JS heap, and memory outside it (Buffers, strings handed to the window): where a peak comes from.
 */
function samplePeakRss(done) {
  const peak = { rss: 0, heap: 0, external: 0 };
  // Every 100 ms: [ms since the probe's start, rss, heap, external] in MB, to see when the peak comes.
  const series = [];
  let lastFull = -Infinity;
  // The resident memory every 20 ms; the heap's figures, which cost the host a third of a ms each
  // time (a tenth of a second over a start-up), every 100 ms.
  const sample = () => {
    const rss = process.memoryUsage.rss();
    peak.rss = Math.max(peak.rss, rss);
    if (performance.now() - lastFull < 100) return;
    lastFull = performance.now();
    const m = process.memoryUsage();
    series.push([Math.round(lastFull), ...[m.rss, m.heapUsed, m.external + m.arrayBuffers].map((b) => Math.round(b / 2 ** 20))]);
    peak.rss = Math.max(peak.rss, m.rss);
    peak.heap = Math.max(peak.heap, m.heapUsed);
    peak.external = Math.max(peak.external, m.external + m.arrayBuffers);
  };
  sample();
  const timer = setInterval(sample, 20);
  return done.then(() => {
    clearInterval(timer);
    lastFull = -Infinity;
    sample();
    return { rssMB: peak.rss / 2 ** 20, heapMB: peak.heap / 2 ** 20, externalMB: peak.external / 2 ** 20, series };
  });
}

/**
 * 200 files of 40 specs change at once, as a checkout of another branch changes them: five task
 * states per spec. Returns how long until every touched spec was reported changed and the
 * registry is idle, and how many times each was reported.
 */
async function checkoutBurst(api, root) {
  const specs = fs.readdirSync(path.join(root, 'specs')).sort().slice(0, 40);
  const reports = new Map();
  const sub = api.registry.onDidChange((e) => {
    for (const dir of e.changed) reports.set(dir, (reports.get(dir) ?? 0) + 1);
  });
  const started = performance.now();
  for (const name of specs) {
    for (let t = 1; t <= 5; t++) {
      const file = path.join(root, 'specs', name, 'task-states', `T${t}.state.json`);
      const state = JSON.parse(fs.readFileSync(file, 'utf8'));
      fs.writeFileSync(file, JSON.stringify({ ...state, status: 'blocked', blocker: 'checked out from another branch', retry_count: state.retry_count + 1 }, null, 2));
    }
  }
  const dirs = specs.map((n) => path.join(root, 'specs', n));
  await until('the burst to be seen', () => dirs.every((d) => reports.has(d)), 60_000);
  await api.registry.whenIdle();
  const ms = performance.now() - started;
  sub.dispose();
  const wrong = dirs.filter((d) => api.registry.entry(d)?.spec.snapshot.taskStates.get('T1')?.status !== 'blocked');
  if (wrong.length) throw new Error(`${wrong.length} spec(s) do not show the checked-out files`);
  return { ms, maxReports: Math.max(...reports.values()), specs: dirs.length, files: dirs.length * 5 };
}

/**
 * BENCH_CPUPROFILE=<folder>: a CPU profile of the host from the probe's start until the specs are
 * loaded, per window. BENCH_HEAPPROFILE=<folder>: a sampling heap profile of the same span, with
 * the objects the garbage collector took since (where the host's garbage is allocated).
 */
async function startProfile(phase) {
  const cpu = process.env.LOOM_BENCH_CPUPROFILE;
  const heap = process.env.LOOM_BENCH_HEAPPROFILE;
  if (!cpu && !heap) return async () => undefined;
  const session = new (require('inspector').Session)();
  session.connect();
  const post = (method, params) => new Promise((resolve, reject) => session.post(method, params, (e, r) => (e ? reject(e) : resolve(r))));
  if (cpu) {
    await post('Profiler.enable');
    await post('Profiler.setSamplingInterval', { interval: 500 });
    await post('Profiler.start');
  }
  if (heap) {
    await post('HeapProfiler.enable');
    await post('HeapProfiler.startSampling', { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  }
  return async () => {
    const files = [];
    if (cpu) {
      const { profile } = await post('Profiler.stop');
      files.push(path.join(cpu, `${phase}-${Date.now()}.cpuprofile`));
      fs.writeFileSync(files[files.length - 1], JSON.stringify(profile));
    }
    if (heap) {
      const { profile } = await post('HeapProfiler.stopSampling');
      files.push(path.join(heap, `${phase}-${Date.now()}.heapprofile`));
      fs.writeFileSync(files[files.length - 1], JSON.stringify(profile));
    }
    session.disconnect();
    return files.join(' ');
  };
}

/**
 * The CPU time (ms) of every process of the machine by its command (Linux), for BENCH_VERBOSE:
 * where the machine's cores went while the window loaded (the window's own processes, git, the look's worker).
 */
function processCpu() {
  const ticks = {};
  let dirs;
  try {
    dirs = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return ticks;
  }
  for (const pid of dirs) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime and stime are fields 14 and 15 of the line (11 and 12 after the command), in ticks of 10 ms.
      const key = `${pid}:${pid === String(process.pid) ? 'extension-host' : comm}`;
      ticks[key] = (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      // Gone meanwhile.
    }
  }
  return ticks;
}

exports.run = async () => {
  const cpuAtStart = process.env.LOOM_BENCH_VERBOSE ? processCpu() : undefined;
  const phase = process.env.LOOM_BENCH_PHASE;
  const out = process.env.LOOM_BENCH_OUT;
  const stopProfile = await startProfile(phase);
  const root = vscode.workspace.workspaceFolders[0].uri.fsPath;
  // performance.now() + timeOrigin is epoch ms: to place this host's marks in the window's profile.
  const result = { phase, timeOrigin: performance.timeOrigin };
  if (phase === 'baseline') {
    result.empty = (await activated(EMPTY)).timings;
    await sleep(3000); // let the host settle as it does with Loom loaded
    result.rssMB = process.memoryUsage().rss / 2 ** 20;
    result.heapMB = process.memoryUsage().heapUsed / 2 ** 20;
  } else if (phase.startsWith('floor')) {
    // Opened as Loom's view is, and timed the same way (firstRowsAt).
    const opened = vscode.commands.executeCommand('workbench.view.extension.loom');
    const api = await activated(FLOOR);
    result.floor = api.timings;
    await opened;
    await until("the floor's first rows", () => api.tree.firstRowsAt !== undefined);
    result.firstRowsAt = api.tree.firstRowsAt;
    result.firstAskedAt = api.tree.firstAskedAt;
  } else {
    const opened = vscode.commands.executeCommand('workbench.view.extension.loom');
    const api = await activated(LOOM);
    result.loom = api.timings;
    const loaded = api.registry.ready.then(() => api.registry.whenIdle());
    const peak = samplePeakRss(loaded);
    await opened;
    await until('the first rows of the Loom view', () => api.tree.firstRowsAt !== undefined);
    result.firstRowsAt = api.tree.firstRowsAt;
    result.firstAskedAt = api.tree.firstAskedAt;
    await loaded;
    result.registry = api.registry.timings;
    if (cpuAtStart) {
      const now = processCpu();
      result.processCpuMs = Object.fromEntries(
        Object.entries(now)
          .map(([k, ms]) => [k, ms - (cpuAtStart[k] ?? 0)])
          .filter(([, ms]) => ms > 0),
      );
    }
    // The host may have looked at a reload's last specs itself and not waited for the look's
    // worker, which then passes over the rest of its list: its counts and timings come when it ends.
    await until("the look's worker to end", () => (api.registry.timings.look ?? []).every((l) => l.begunAt === undefined || l.doneAt !== undefined));
    result.specs = api.registry.rows().length;
    result.fullSpecs = api.registry.loadedEntries().length;
    const peaks = await peak;
    result.cpuProfile = await stopProfile();
    result.peakRssMB = peaks.rssMB;
    result.peakHeapMB = peaks.heapMB;
    result.peakExternalMB = peaks.externalMB;
    result.memorySeries = peaks.series;
    result.heapMB = process.memoryUsage().heapUsed / 2 ** 20;
    result.cache = api.registry.cacheStats;
    if (phase === 'cold') {
      result.burst = await checkoutBurst(api, root);
      await sleep(3000); // the cache files are written a moment after a load: let them be, for the warm start
      // BENCH_HEAPSNAPSHOT=<folder>: what the host holds once loaded (a snapshot collects the garbage first), for a heap profiler.
      if (process.env.LOOM_BENCH_HEAPSNAPSHOT) result.heapSnapshot = require('v8').writeHeapSnapshot(path.join(process.env.LOOM_BENCH_HEAPSNAPSHOT, `cold-${Date.now()}.heapsnapshot`));
    }
  }
  fs.writeFileSync(out, JSON.stringify(result, null, 2));
};
