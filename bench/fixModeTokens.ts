/**
 * `bench: fix-mode-tokens ratio=<r>`: how large a fix-mode prompt is next to the
 * first-implementation prompt of the same task, built by the core's prompt builders on a
 * realistic spec. Loom's context rule says fix mode carries only the fix instructions, the
 * subagent context and the task's requirement/behavior lines; the target is a ratio under 0.3.
 *
 * The spec is `sample/specs/2026-11-25+due-dates` when it exists, else the English fixture in
 * `test/unit/executing/fixtures/due-dates-en`. Tokens are counted deterministically with a
 * word-piece estimate: each CJK character is one token, each run of ASCII letters and digits is
 * one token per 4 characters (rounded up), every other non-space character is one token.
 * The ratio is the sum over the spec's tasks of fix-mode tokens over first-implementation tokens.
 */
import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { promptContextOf, promptTaskOf, readExecutingInputs } from '../src/core/executing/dispatch/executingInputs';
import type { FixItem } from '../src/core/executing/dispatch/fixInstructions';
import { buildFixPrompt, buildImplementerPrompt } from '../src/core/executing/dispatch/promptBuilder';
import { compactHandoffIndex, upstreamTasks } from '../src/core/executing/taskHandoff';
import { detectTestCommand } from '../src/core/executing/evidence/testRunner';
import { loadSpec } from '../src/core/specdir/loadSpec';

const SPEC = 'specs/2026-11-25+due-dates';
const ROOT = resolve(__dirname, '..');
export const FIXTURE_ROOT = join(ROOT, 'test/unit/executing/fixtures/due-dates-en');
const CANDIDATES = [join(ROOT, 'sample'), FIXTURE_ROOT];

export function estimateTokens(text: string): number {
  let n = 0;
  for (const m of text.matchAll(/[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]|[A-Za-z0-9]+|[^\sA-Za-z0-9]/g)) {
    n += /^[A-Za-z0-9]+$/.test(m[0]) ? Math.ceil(m[0].length / 4) : 1;
  }
  return n;
}

/** Two findings of the kind a reviewer writes, naming the task's own files. */
function typicalFixItems(owns: readonly string[], behavior: string | undefined, zh: boolean): FixItem[] {
  const source = owns.find((p) => !/test/.test(p)) ?? owns[0] ?? 'src/index.js';
  const test = owns.find((p) => /test/.test(p)) ?? 'tests/index.test.js';
  return zh
    ? [
        {
          problem: '空字符串输入没有被拒绝，返回了 ok: true',
          file: source,
          location: '导出函数的入口校验',
          severity: '主要',
          direction: '对空字符串返回 { ok: false, error }，错误信息写出期望格式，并补充对应测试',
        },
        { problem: `测试名没有以 behavior id 开头${behavior ? `（${behavior}）` : ''}`, file: test, location: '第一个 test()', severity: '次要', direction: '把测试名改为以 behavior id 开头' },
      ]
    : [
        {
          problem: 'an empty string is accepted and returns ok: true',
          file: source,
          location: 'input check of the exported function',
          severity: 'major',
          direction: 'return { ok: false, error } naming the expected format for an empty string, and add a test for it',
        },
        {
          problem: `the test name does not start with the behavior id${behavior ? ` (${behavior})` : ''}`,
          file: test,
          location: 'first test()',
          severity: 'minor',
          direction: 'rename the test so it starts with the behavior id',
        },
      ];
}

/** `roots`: repositories to take the spec from, first one that has it; the sample, then the fixture. */
export async function benchFixModeTokens(roots: readonly string[] = CANDIDATES): Promise<string> {
  const repoRoot = roots.find((root) => existsSync(join(root, SPEC, 'tasks')));
  if (!repoRoot) throw new Error(`no ${SPEC} to measure (looked in ${roots.join(', ')})`);
  const snapshot = loadSpec(repoRoot, join(repoRoot, SPEC));
  const inputs = readExecutingInputs(snapshot);
  const ctx = promptContextOf(inputs, snapshot, detectTestCommand(repoRoot));
  const zh = inputs.language === 'zh';
  let first = 0;
  let fix = 0;
  let worst = 0;
  for (const task of inputs.tasks) {
    const ptask = promptTaskOf(inputs, task);
    const upstream = upstreamTasks(task.id, snapshot.tasks).map((id) => ({ task: id, handoff: snapshot.handoffs.get(id), changed: [] }));
    const a = estimateTokens(buildImplementerPrompt(ctx, ptask, { upstreamHandoffs: compactHandoffIndex(upstream, inputs.language) }));
    const b = estimateTokens(buildFixPrompt(ctx, ptask, typicalFixItems(task.owns, task.behavior_ids[0], zh)));
    first += a;
    fix += b;
    worst = Math.max(worst, b / a);
  }
  const ratio = fix / first;
  return `bench: fix-mode-tokens ratio=${ratio.toFixed(2)} max=${worst.toFixed(2)} firstTokens=${first} fixTokens=${fix} tasks=${inputs.tasks.length} lang=${inputs.language} spec=${relative(ROOT, join(repoRoot, SPEC))} counter=word-piece`;
}

if (require.main === module) {
  benchFixModeTokens().then(
    (line) => console.log(line),
    (e) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
