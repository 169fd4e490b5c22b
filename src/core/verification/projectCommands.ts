import { join } from 'node:path';
import { readOptionalText } from '../fs/readOptional';
import { detectTestCommand } from '../executing/evidence/testRunner';

/** loom's project rules, where its verification skill reads BUILD_CMD and VET_CMD. */
export const CONSTITUTION_FILE = '.loom/rules/constitution.md';

/** The commands verification runs in the feature worktree (or the repository), in order. */
export interface VerificationCommands {
  /** The project's build and type checks, where configured; none is normal for a plain script project. */
  checks: string[];
  /** The test command (the one Run Tasks uses); undefined when the project declares none. */
  test?: string;
}

/** package.json scripts that build or type-check, in the order they are run. */
const CHECK_SCRIPTS = ['build', 'typecheck', 'type-check', 'check-types', 'tsc'];

/**
 * loom's constitution names the commands that must pass as `- 必须通过：<command>` (its template's
 * BUILD_CMD and VET_CMD; `Must pass:` in English). An unrendered `[TODO: …]` or `{{BUILD_CMD}}`
 * is no command.
 */
const MUST_PASS = /^\s*[-*]\s*(?:必须通过|must pass)\s*[:：]\s*`?([^`\n]+?)`?\s*$/gim;
const UNFILLED = /^\[|\{\{/;

function packageScripts(root: string): Map<string, string> {
  const text = readOptionalText(join(root, 'package.json'));
  if (!text) return new Map();
  try {
    const scripts = (JSON.parse(text) as { scripts?: unknown }).scripts;
    if (!scripts || typeof scripts !== 'object') return new Map();
    return new Map(Object.entries(scripts as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    // An unreadable package.json names no command.
    return new Map();
  }
}

/**
 * What verification runs, as loom's verification skill reads it: the build and type checks the
 * project configures (its package.json scripts, then the constitution's must-pass commands), and
 * the test command Run Tasks uses (`loom.executing.testCommand`, else the project's own test
 * script). A check the same as the test command is run once, as the test.
 */
export function verificationCommands(cwd: string, repoRoot: string, testCommand: string | undefined): VerificationCommands {
  const test = testCommand?.trim() || detectTestCommand(cwd);
  const scripts = packageScripts(cwd);
  const checks = CHECK_SCRIPTS.filter((s) => scripts.has(s)).map((s) => `npm run ${s}`);
  const constitution = readOptionalText(join(cwd, CONSTITUTION_FILE)) ?? readOptionalText(join(repoRoot, CONSTITUTION_FILE)) ?? '';
  for (const m of constitution.matchAll(MUST_PASS)) {
    const command = m[1].trim();
    if (command && !UNFILLED.test(command)) checks.push(command);
  }
  const same = (a: string, b: string | undefined) => b !== undefined && a.replace(/\s+/g, ' ') === b.replace(/\s+/g, ' ');
  return { checks: [...new Set(checks)].filter((c) => !same(c, test) && !(test === 'npm test' && c === 'npm run test')), ...(test ? { test } : {}) };
}
