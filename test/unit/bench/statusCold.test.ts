import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { generateRepository } from '../../../bench/generateRepository';
import { median, spread } from '../../../bench/median';
import { benchStatusCold, benchStatusScan, statusFloorLine } from '../../../bench/statusScanBench';
import { spawnSync } from 'node:child_process';

const work = mkdtempSync(join(tmpdir(), 'loom-bench-cold-'));
after(() => rmSync(work, { recursive: true, force: true }));

test('a median of an even count is the mean of the two middle values', () => {
  assert.equal(median([5, 1, 3]), 3);
  assert.equal(median([4, 1, 3, 2]), 2.5);
});

test("a spread is the samples' lowest and highest value, whole milliseconds", () => {
  assert.equal(spread([828.4, 1832.6, 1236.9]), '828-1833');
  assert.equal(spread([]), 'NaN');
});

// The lines `npm run bench` prints for the status: the floor's files, the run on a filled cache and
// the first run on an empty cache folder, each against the floor and against loom's own status where
// LOOM_CLI names a CLI (here a stand-in that prints a list, as loom's `status --json` does; the
// benchmark runs loom itself); without LOOM_CLI, the same lines without loomRatio.
test('bench: status-floor, status-scan and status-cold time the built CLI against the floor, and against LOOM_CLI when it names one', () => {
  assert.ok(existsSync(resolve(__dirname, '../../../dist/cli.js')), 'dist/cli.js is missing: run "npm run build" first (npm test does)');
  const root = join(work, 'repo');
  generateRepository(root, 3, 2);
  assert.match(statusFloorLine(), /^bench: status-floor reads=.*pipeline\.state\.json.*task-states.*handoffs.* parsed; .*test-report\.md.*traceability\.json.* read; /);
  const alone = benchStatusCold(root, work, 3, 2, undefined, 1);
  assert.match(alone, /^bench: status-cold ratio=\d+\.\d\d coldMs=\d+ floorMs=\d+ warmMs=\d+ cpuMs=\d+\/\d+ specs=3 tasks=2 runs=1$/);
  assert.match(benchStatusScan(root, join(work, 'cache-alone'), 3, 2, undefined, 1), /^bench: status-scan ratio=\d+\.\d\d statusMs=\d+ floorMs=\d+ cpuMs=\d+\/\d+ peakMB=\d+ specs=3 tasks=2 runs=1$/);
  const loom = join(work, 'loom.js');
  writeFileSync(loom, "if (process.argv[2] !== 'status' || process.argv[3] !== '--json') process.exit(2);\nconsole.log(JSON.stringify([{ spec_dir: process.cwd() }]));\n");
  assert.match(
    benchStatusCold(root, work, 3, 2, loom, 1),
    /^bench: status-cold ratio=\d+\.\d\d loomRatio=\d+\.\d\d coldMs=\d+ floorMs=\d+ loomMs=\d+ warmMs=\d+ cpuMs=\d+\/\d+\/\d+ specs=3 tasks=2 runs=1$/,
  );
  assert.match(
    benchStatusScan(root, join(work, 'cache-loom'), 3, 2, loom, 1),
    /^bench: status-scan ratio=\d+\.\d\d loomRatio=\d+\.\d\d statusMs=\d+ floorMs=\d+ loomMs=\d+ cpuMs=\d+\/\d+\/\d+ peakMB=\d+ specs=3 tasks=2 runs=1$/,
  );
  assert.throws(() => benchStatusCold(root, work, 3, 2, join(work, 'no-loom.js'), 1), /LOOM_CLI=.*no-loom\.js: no such file/);
  assert.throws(() => benchStatusScan(root, join(work, 'cache-none'), 3, 2, join(work, 'no-loom.js'), 1), /LOOM_CLI=.*no-loom\.js: no such file/);
});

test('the floor reads the files it says it reads, on the generated repository', () => {
  const root = join(work, 'floor');
  generateRepository(root, 2, 3);
  const r = spawnSync(process.execPath, [resolve(__dirname, '../../../bench/statusScan.cjs'), root], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  // Without a file it says it reads, it fails: it reads every one of them.
  rmSync(join(root, 'specs/2026-11-01+feature-0/traceability.json'));
  assert.notEqual(spawnSync(process.execPath, [resolve(__dirname, '../../../bench/statusScan.cjs'), root], { encoding: 'utf8' }).status, 0);
});
