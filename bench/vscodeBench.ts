/**
 * The editor benchmarks, in a real VS Code: code-server (VS Code 1.139 with a real Node extension
 * host, in headless chromium) driven through test/vscode/code-shim.js, as the integration tests
 * run. bench/vscode/probe runs inside the extension host and reports what it measured; the empty
 * extension in bench/vscode/empty-extension is loaded beside Loom as the activation baseline.
 *
 * Each sample is one window: `baseline` (the empty extension alone), `floor` (the floor extension
 * alone, bench/vscode/floor-extension: Loom's view with as many rows, from a list made before the
 * window opened), `cold` (Loom on 1,000 specs with empty storage, then a checkout burst), `warm`
 * (the same workspace and profile again: the per-spec cache is there), and on 10 specs
 * `floor-small` and `small`. The rounds alternate and the lines print medians.
 * Each round generates both workspaces and waits until the kernel has written them back to disk
 * (bench/writeback.ts) before its first window opens.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generateRepository } from './generateRepository';
import { median, spread } from './median';
import { unwrittenMB, waitForWriteback } from './writeback';

const ROOT = resolve(__dirname, '..');
const SHIM = join(ROOT, 'test/vscode/code-shim.js');
type Clock = { runMs: number; waitMs: number };
type Timings = {
  bundleStartedAt: number;
  bundleLoadedAt: number;
  activateStartedAt: number;
  extensionStartedAt?: number;
  extensionLoadedAt?: number;
  extensionActivatedAt?: number;
  deferred?: boolean;
  activatedAt: number;
  codeCache?: boolean;
  threadAtStart?: Clock;
  threadAtLoaded?: Clock;
  threadAtActivate?: Clock;
  threadAtActivated?: Clock;
};
interface Sample {
  phase: string;
  loom?: Timings;
  empty?: Timings;
  floor?: Timings;
  rssMB?: number;
  heapMB?: number;
  peakRssMB?: number;
  peakHeapMB?: number;
  peakExternalMB?: number;
  firstRowsAt?: number;
  firstAskedAt?: number;
  registry?: {
    startedAt: number;
    firstRowsAt: number;
    rowsAt: number;
    loadedAt: number;
    checkStartedAt?: number;
    checkedAt: number;
    look?: { begunAt?: number; firstAt?: number; doneAt?: number; keptAt?: number; peakMB?: number; cpuMs?: number; background?: boolean }[];
  };
  specs?: number;
  fullSpecs?: number;
  burst?: { ms: number; maxReports: number; specs: number; files: number };
  cache?: { hits: number; misses: number; written: number; rejected: number; evaluations?: { hits: number; misses: number; written: number; rejected: number } };
}

/**
 * The extension's own time: its entry's top level, then activate(), which loads the extension's
 * bundle (compiled, or read from V8's code cache) and runs its activate(). Not the time in between, when
 * VS Code (not the extension) runs before calling activate(): that gap swings by hundreds of ms
 * from window to window, for the empty extension alike, and would drown the difference measured.
 */
const activationMs = (t: Timings) => t.bundleLoadedAt - t.bundleStartedAt + (t.activatedAt - t.activateStartedAt);
/**
 * Of activationMs, how long the extension host's thread ran, and how long it was ready to run but
 * waited for a CPU (the window's other processes had both): on this 2-core machine the second
 * swings from window to window, and is why activationMs does.
 */
const threadMs = (t: Timings, part: 'runMs' | 'waitMs') =>
  t.threadAtStart && t.threadAtLoaded && t.threadAtActivate && t.threadAtActivated ? t.threadAtLoaded[part] - t.threadAtStart[part] + (t.threadAtActivated[part] - t.threadAtActivate[part]) : NaN;
/** From the bundle's first line to the end of activate(), VS Code's gap included (printed as spanMs). */
const spanMs = (t: Timings) => t.activatedAt - t.bundleStartedAt;

/**
 * The floor extension's rows for `workspace`, as Loom draws its spec rows (specTreeProvider.ts,
 * treeItems.ts): newest first, the feature's name, the stage and its progress. Made here, before
 * the window opens: the extension reads nothing itself.
 */
function floorRows(workspace: string): { group: string; rows: { id: string; label: string; description: string }[] } {
  const names = readdirSync(join(workspace, 'specs')).sort((a, b) => b.localeCompare(a));
  return {
    group: 'In progress',
    rows: names.map((name) => ({ id: `spec:${join(workspace, 'specs', name)}`, label: name.replace(/^\d{4}-\d{2}-\d{2}\+/, ''), description: 'executing · 6 of 13 stages done · 1 month ago' })),
  };
}

type WindowExtension = 'loom' | 'empty' | 'floor';

async function runWindow(work: string, phase: string, workspace: string, userDataDir: string, extension: WindowExtension): Promise<Sample> {
  // code-server keeps one extensionDevelopmentPath: every extension goes into one folder of extensions.
  const extensions = mkdtempSync(join(work, 'ext-'));
  // Each window loads one of them, so none's activation waits on another's.
  if (extension === 'loom') symlinkSync(ROOT, join(extensions, 'loom-vscode'), 'dir');
  else if (extension === 'empty') cpSync(join(__dirname, 'vscode/empty-extension'), join(extensions, 'loom-bench-empty'), { recursive: true });
  else {
    cpSync(join(__dirname, 'vscode/floor-extension'), join(extensions, 'loom-bench-floor'), { recursive: true });
    writeFileSync(join(extensions, 'loom-bench-floor', 'rows.json'), JSON.stringify(floorRows(workspace)));
  }
  const out = join(work, `${phase}-${Date.now()}.json`);
  const { runTests } = await import('@vscode/test-electron');
  try {
    await runTests({
      vscodeExecutablePath: SHIM,
      extensionDevelopmentPath: [extensions],
      extensionTestsPath: join(__dirname, 'vscode/probe/index.js'),
      extensionTestsEnv: {
        LOOM_BENCH_PHASE: phase,
        LOOM_BENCH_OUT: out,
        // The code caches of Loom's bundles (src/extensionEntry.ts): this run's own, written by its first window.
        LOOM_VSCODE_CACHE_DIR: join(work, 'user-cache'),
        ...(process.env.BENCH_HEAPSNAPSHOT ? { LOOM_BENCH_HEAPSNAPSHOT: resolve(process.env.BENCH_HEAPSNAPSHOT) } : {}),
        ...(process.env.BENCH_CPUPROFILE ? { LOOM_BENCH_CPUPROFILE: resolve(process.env.BENCH_CPUPROFILE) } : {}),
        ...(process.env.BENCH_HEAPPROFILE ? { LOOM_BENCH_HEAPPROFILE: resolve(process.env.BENCH_HEAPPROFILE) } : {}),
        ...(process.env.BENCH_VERBOSE ? { LOOM_BENCH_VERBOSE: '1' } : {}),
      },
      launchArgs: [workspace, `--user-data-dir=${userDataDir}`, `--extensions-dir=${join(work, 'installed-extensions')}`],
    });
  } finally {
    rmSync(join(extensions, 'loom-vscode'), { force: true }); // the link, never what it points to
    rmSync(extensions, { recursive: true, force: true });
  }
  return JSON.parse(readFileSync(out, 'utf8')) as Sample;
}

export async function benchEditor(specs: number, rounds = Number(process.env.BENCH_VSCODE_ROUNDS ?? 5)): Promise<string[]> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require(join(ROOT, 'test/vscode/codeServer')).ensureInstalled();
  const work = mkdtempSync(join(tmpdir(), 'loom-bench-vscode-'));
  try {
    const baseline: Sample[] = [];
    const floor: Sample[] = [];
    const cold: Sample[] = [];
    const warm: Sample[] = [];
    const floorSmall: Sample[] = [];
    const small: Sample[] = [];
    const writebackMs: number[] = [];
    for (let round = 0; round < rounds; round++) {
      // A fresh copy of the workspaces each round: the checkout burst changes the large one.
      const large = join(work, `round-${round}`, 'large');
      const little = join(work, `round-${round}`, 'small');
      const unwritten = unwrittenMB();
      generateRepository(large, specs, 20);
      generateRepository(little, 10, 20);
      writebackMs.push(await waitForWriteback(unwritten));
      const profile = join(work, `round-${round}`, 'profile');
      mkdirSync(profile, { recursive: true });
      baseline.push(await runWindow(work, 'baseline', large, join(work, `round-${round}`, 'profile-baseline'), 'empty'));
      floor.push(await runWindow(work, 'floor', large, join(work, `round-${round}`, 'profile-floor'), 'floor'));
      cold.push(await runWindow(work, 'cold', large, profile, 'loom'));
      warm.push(await runWindow(work, 'warm', large, profile, 'loom'));
      floorSmall.push(await runWindow(work, 'floor-small', little, join(work, `round-${round}`, 'profile-floor-small'), 'floor'));
      small.push(await runWindow(work, 'small', little, join(work, `round-${round}`, 'profile-small'), 'loom'));
    }
    if (process.env.BENCH_VERBOSE) console.error(JSON.stringify({ baseline, floor, cold, warm, floorSmall, small }, null, 1));
    const emptyMs = median(baseline.map((s) => activationMs(s.empty!)));
    // A start of the window as users have it: the bundle's code cache is there (it is written once
    // per build, by the first window: `firstMs`, this run's first cold window, compiled it).
    const cached = (ss: Sample[]) => (ss.some((s) => s.loom!.codeCache) ? ss.filter((s) => s.loom!.codeCache) : ss);
    const extra = (ss: Sample[]) => median(cached(ss).map((s) => activationMs(s.loom!))) - emptyMs;
    const loomMs = median(cached(cold).map((s) => activationMs(s.loom!)));
    const firstMs = activationMs(cold[0].loom!) - emptyMs;
    // Loading the extension's bundle, and that with the extension's activate(): within the
    // entry's activate(), or a moment after it returned when it was deferred (a window opened on a loom repository).
    const loadMs = median(cached(cold).map((s) => (s.loom!.extensionLoadedAt ?? NaN) - (s.loom!.extensionStartedAt ?? NaN)));
    const startMs = median(cached(cold).map((s) => (s.loom!.extensionActivatedAt ?? NaN) - (s.loom!.extensionStartedAt ?? NaN)));
    const extraSpan = median(cold.map((s) => spanMs(s.loom!))) - median(baseline.map((s) => spanMs(s.empty!)));
    // From the activation of the window's extension (Loom, or the floor's) to its first rows handed to VS Code.
    const rowsMs = (s: Sample) => s.firstRowsAt! - (s.loom ?? s.floor)!.activateStartedAt;
    // When VS Code asked the view for its rows.
    const askedMs = (s: Sample) => s.firstAskedAt! - (s.loom ?? s.floor)!.activateStartedAt;
    // Loom's own part of it: from VS Code asking for the rows (a moment that moves with the window's own start) to the rows handed to it.
    const askToRowsMs = (s: Sample) => s.firstRowsAt! - s.firstAskedAt!;
    // The whole start-up: every row, and the one look at every spec behind them (Problems panel, stale marks).
    const loadedMs = (s: Sample) => s.registry!.checkedAt - s.loom!.activateStartedAt;
    // The look's worker, from its start to its last result (the part of the start-up after the rows).
    const lookMs = (s: Sample) => {
      const look = s.registry!.look?.[0];
      return look?.begunAt !== undefined && look.doneAt !== undefined ? look.doneAt - look.begunAt : NaN;
    };
    // Whether the window started the look's worker (a reload whose few changed specs the host looks at does not).
    const worker = (s: Sample) => s.registry!.look?.[0]?.begunAt !== undefined;
    // The CPU time the look's worker used (at the lowest priority, it runs when the window leaves a core free).
    const lookCpuMs = (s: Sample) => s.registry!.look?.[0]?.cpuMs ?? NaN;
    // Like activation, a start as users have it: the run's first window, the one after the build
    // that compiles the bundle and its libraries without a code cache, is printed apart
    // (`firstMs`); the 10-spec windows always come after it, with the cache.
    const rowsLarge = median(cached(cold).map(rowsMs));
    const rowsSmall = median(small.map(rowsMs));
    // VS Code's own floor on the same workspaces: the ratio is Loom's first paint at 1,000 specs over the floor's.
    const floorLarge = median(floor.map(rowsMs));
    const floorSmallMs = median(floorSmall.map(rowsMs));
    const coldLoaded = median(cold.map(loadedMs));
    const warmLoaded = median(warm.map(loadedMs));
    const burstMs = median(cold.map((s) => s.burst!.ms));
    const reports = Math.max(...cold.map((s) => s.burst!.maxReports));
    const peak = median(cold.map((s) => s.peakRssMB!));
    const base = median(baseline.map((s) => s.rssMB!));
    const baseHeap = median(baseline.map((s) => s.heapMB!));
    return [
      `bench: activation ratio=${extra(cold).toFixed(0)} loomMs=${loomMs.toFixed(0)} emptyMs=${emptyMs.toFixed(0)} extraMsAt10=${extra(small).toFixed(0)} warmMs=${extra(warm).toFixed(0)} loadMs=${loadMs.toFixed(0)} startMs=${startMs.toFixed(0)} deferred=${cold.filter((s) => s.loom!.deferred).length}/${cold.length} firstMs=${firstMs.toFixed(0)} codeCache=${cached(cold).filter((s) => s.loom!.codeCache).length}/${cold.length} runMs=${median(cached(cold).map((s) => threadMs(s.loom!, 'runMs'))).toFixed(0)} waitMs=${median(cached(cold).map((s) => threadMs(s.loom!, 'waitMs'))).toFixed(0)} spanMs=${extraSpan.toFixed(0)} specs=${specs}/10 rounds=${rounds}`,
      `bench: tree-first-paint ratio=${(rowsLarge / floorLarge).toFixed(2)} ms${specs}=${rowsLarge.toFixed(0)} ms10=${rowsSmall.toFixed(0)} floorMs${specs}=${floorLarge.toFixed(0)} floorMs10=${floorSmallMs.toFixed(0)} largeToSmall=${(rowsLarge / rowsSmall).toFixed(2)} askedMs${specs}=${median(cached(cold).map(askedMs)).toFixed(0)} askedMs10=${median(small.map(askedMs)).toFixed(0)} floorAskedMs=${median(floor.map(askedMs)).toFixed(0)}/${median(floorSmall.map(askedMs)).toFixed(0)} askedSpreadMs${specs}=${spread(cached(cold).map(askedMs))} floorAskedSpreadMs${specs}=${spread(floor.map(askedMs))} askToRowsMs=${median(cached(cold).map(askToRowsMs)).toFixed(0)}/${median(small.map(askToRowsMs)).toFixed(0)} floorAskToRowsMs=${median(floor.map(askToRowsMs)).toFixed(0)}/${median(floorSmall.map(askToRowsMs)).toFixed(0)} warmMs=${median(warm.map(rowsMs)).toFixed(0)} firstMs=${rowsMs(cold[0]).toFixed(0)} codeCache=${cached(cold).length}/${cold.length} writebackMs=${median(writebackMs).toFixed(0)} rounds=${rounds}`,
      `bench: warm-start ratio=${(warmLoaded / coldLoaded).toFixed(2)} warmMs=${warmLoaded.toFixed(0)} coldMs=${coldLoaded.toFixed(0)} rowsMs=${median(warm.map((s) => s.registry!.rowsAt - s.loom!.activateStartedAt)).toFixed(0)}/${median(cold.map((s) => s.registry!.rowsAt - s.loom!.activateStartedAt)).toFixed(0)} filesParsed=${median(warm.map((s) => s.cache!.misses))}/${median(cold.map((s) => s.cache!.misses))} specsEvaluated=${median(warm.map((s) => s.cache!.evaluations?.misses ?? NaN))}/${median(cold.map((s) => s.cache!.evaluations?.misses ?? NaN))} lookMs=${median(warm.map(lookMs)).toFixed(0)}/${median(cold.map(lookMs)).toFixed(0)} lookCpuMs=${median(warm.map(lookCpuMs)).toFixed(0)}/${median(cold.map(lookCpuMs)).toFixed(0)} workers=${warm.filter(worker).length}/${cold.filter(worker).length} specs=${specs} rounds=${rounds}`,
      `bench: checkout-burst ratio=${burstMs.toFixed(0)} maxReloadsPerSpec=${reports} files=${cold[0].burst!.files} specs=${cold[0].burst!.specs} rounds=${rounds}`,
      `bench: peakMB ratio=${(peak - base).toFixed(0)} peakMB=${peak.toFixed(0)} emptyWindowMB=${base.toFixed(0)} peakHeapMB=${median(cold.map((s) => s.peakHeapMB!)).toFixed(0)} emptyHeapMB=${baseHeap.toFixed(0)} peakExternalMB=${median(cold.map((s) => s.peakExternalMB!)).toFixed(0)} lookProcessMB=${median(cold.map((s) => s.registry!.look?.[0]?.peakMB ?? NaN)).toFixed(0)} specs=${specs} keptInFull=${median(cold.map((s) => s.fullSpecs ?? 0))} rounds=${rounds}`,
    ];
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (require.main === module) {
  benchEditor(Number(process.env.BENCH_SPECS ?? 1000)).then(
    (lines) => console.log(lines.join('\n')),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
