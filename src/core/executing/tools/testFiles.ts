import { normalizeOwnedPath } from '../../fs/paths';

export const TEST_DIRS: ReadonlySet<string> = new Set(['test', 'tests', '__tests__', 'spec', 'specs', 'e2e', 'testing']);
const TEST_NAME = /(\.|_|-)(test|spec|e2e)\.[A-Za-z0-9]+$|^test_.*\.py$|_test\.(go|py|rb|exs?)$|Tests?\.(java|kt|cs|swift)$/;

/**
 * Whether a repository-relative path is a test file by the usual conventions: a test folder
 * (`test/`, `tests/`, `__tests__/`) or a test name (`a.test.ts`, `a.spec.js`, `test_a.py`,
 * `a_test.go`, `ATest.java`). Loom's spec folders (`specs/<date+feature>/`) are not tests.
 */
export function isTestPath(path: string): boolean {
  const segments = normalizeOwnedPath(path).split('/').filter(Boolean);
  const name = segments[segments.length - 1] ?? '';
  if (isTestName(name)) return true;
  const dirs = segments.slice(0, -1);
  // `specs/2026-11-25+x/` holds loom's own files, never tests.
  if (dirs[0] === 'specs' || dirs[0] === 'qa') return false;
  return dirs.some((d) => TEST_DIRS.has(d) && d !== 'specs');
}

/** Whether a file name (no folder) is a test by its name alone: `a.test.ts`, `test_a.py`, `a_test.go`, `ATest.java`. */
export function isTestName(name: string): boolean {
  return TEST_NAME.test(name);
}
