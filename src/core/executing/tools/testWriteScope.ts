import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { TaskFile } from '../../files/taskFile';
import { normalizeOwnedPath } from '../../fs/paths';
import type { PromptLanguage } from '../dispatch/prompts/promptTemplates';
import { isTestName, isTestPath, TEST_DIRS } from './testFiles';
import { t } from '../../messages';

/**
 * Where the test reporter may write: the project's test locations, not every path whose name
 * looks like a test. They are the test folders the worktree has (`test/`, `packages/a/tests/`)
 * or the tasks own, where any file may be written (tests and their fixtures), and the folders
 * that hold test files beside the code (`src/` with `a.test.ts`), where only files named like
 * tests may be. Wherever it is, nothing hidden (`.github/`, `.vscode/`, `.husky/`) and no file
 * a tool runs by its name (package manifests, CI and build files) is ever written.
 */
export interface TestLocations {
  /** Worktree-relative test folders, ending in `/`. */
  folders: string[];
  /**
   * Worktree-relative folders with test files beside the code, ending in `/` (`''` is the root),
   * with the extensions of those test files: only test files of the same kind are written there.
   */
  beside: Array<{ folder: string; extensions: string[] }>;
}

/** Where the test reporter creates tests in a project that has none yet. */
export const DEFAULT_TEST_FOLDER = 'test/';

/** Files a tool of the repository runs or obeys by name, at any depth (compared in lower case). */
const EXECUTED_BY_NAME = new Set([
  'package.json',
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'pnpm-workspace.yaml',
  'makefile',
  'gnumakefile',
  'justfile',
  'taskfile.yml',
  'taskfile.yaml',
  'rakefile',
  'gemfile',
  'jenkinsfile',
  'azure-pipelines.yml',
  'bitbucket-pipelines.yml',
  'appveyor.yml',
  'dockerfile',
  'docker-compose.yml',
  'docker-compose.yaml',
  'pyproject.toml',
  'setup.py',
  'setup.cfg',
  'tox.ini',
  'noxfile.py',
  'cargo.toml',
  'build.rs',
  'go.mod',
  'build.gradle',
  'build.gradle.kts',
  'settings.gradle',
  'settings.gradle.kts',
  'pom.xml',
  'composer.json',
  'cmakelists.txt',
]);

/** The walk is bounded: it runs before a run starts and before the test reporter's dispatch. */
const WALK_DEPTH = 6;
const WALK_FOLDERS = 5000;

/**
 * The test locations of a worktree: test folders found up to six levels deep in at most 5000
 * folders (hidden folders, `node_modules` and Loom's own paths skipped), the test folders of the
 * tasks' owns, and the folders of test files beside the code. `test/` when there is none.
 */
export function findTestLocations(worktree: string, input: { owned?: readonly string[]; excluded?: readonly string[] } = {}): TestLocations {
  const folders = new Set<string>();
  const beside = new Map<string, Set<string>>();
  const excluded = (input.excluded ?? []).map((p) => normalizeOwnedPath(p).toLowerCase());
  const skip = (rel: string) => excluded.some((p) => rel.toLowerCase() === p || rel.toLowerCase().startsWith(`${p}/`));
  const add = (rel: string) => {
    const segments = normalizeOwnedPath(rel).split('/').filter(Boolean);
    if (!segments.length || !isTestPath(segments.join('/')) || writeForbidden(segments.join('/')) || skip(segments.join('/'))) return;
    const at = segments.findIndex((s, i) => i < segments.length - 1 && TEST_DIRS.has(s) && s !== 'specs');
    if (at >= 0) folders.add(`${segments.slice(0, at + 1).join('/')}/`);
    else if (isTestName(segments[segments.length - 1])) {
      const folder = segments.length > 1 ? `${segments.slice(0, -1).join('/')}/` : '';
      beside.set(folder, (beside.get(folder) ?? new Set()).add(extensionOf(segments[segments.length - 1])));
    }
  };
  let visited = 0;
  const walk = (rel: string, depth: number) => {
    if (++visited > WALK_FOLDERS) return;
    let entries;
    try {
      entries = readdirSync(rel ? join(worktree, ...rel.split('/')) : worktree, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.name.startsWith('.') || e.name === 'node_modules' || skip(path)) continue;
      if (e.isDirectory()) {
        // A test folder holds everything under it; `specs/` and `qa/` at the root are Loom's.
        if (TEST_DIRS.has(e.name) && e.name !== 'specs' && isTestPath(`${path}/x`)) folders.add(`${path}/`);
        else if (depth < WALK_DEPTH) walk(path, depth + 1);
      } else if (e.isFile() && isTestName(e.name)) add(path);
    }
  };
  walk('', 1);
  for (const owned of input.owned ?? []) add(owned.endsWith('/') ? `${owned}x` : owned);
  // A folder inside a test folder adds nothing; neither do files beside it.
  const sortedFolders = [...folders].sort().filter((f, _, all) => !all.some((o) => o !== f && f.startsWith(o)));
  const sortedBeside = [...beside.keys()]
    .sort()
    .filter((b) => !sortedFolders.some((f) => b.startsWith(f)))
    .map((folder) => ({ folder, extensions: [...beside.get(folder)!].sort() }));
  if (!sortedFolders.length && !sortedBeside.length) sortedFolders.push(DEFAULT_TEST_FOLDER);
  return { folders: sortedFolders, beside: sortedBeside };
}

/** The test locations of a run: the worktree's and those the tasks own, never Loom's own paths. */
export function testLocationsOfRun(worktree: string, tasks: Iterable<Pick<TaskFile, 'owns'>>, protectedPaths: readonly string[]): TestLocations {
  return findTestLocations(worktree, { owned: [...tasks].flatMap((t) => t.owns), excluded: protectedPaths });
}

/** Why the test reporter may never write `rel`, wherever the test locations are; undefined when it may. */
export function writeForbidden(rel: string): string | undefined {
  const segments = normalizeOwnedPath(rel).split('/').filter(Boolean);
  const hidden = segments.find((s) => s.startsWith('.'));
  if (hidden) return `${rel} is under ${hidden}, which configures tools (CI workflows, editor tasks, git hooks); the test reporter never writes there`;
  const name = (segments[segments.length - 1] ?? '').toLowerCase();
  if (EXECUTED_BY_NAME.has(name)) return `${rel} is a file a tool of the repository runs by its name; the test reporter never writes it`;
  return undefined;
}

/** Whether the test reporter may write `rel`; the refusal names the locations it may write. */
export function testLocationAllows(locations: TestLocations, rel: string): { ok: true } | { ok: false; reason: string } {
  const path = normalizeOwnedPath(rel);
  const forbidden = writeForbidden(path);
  if (forbidden) return { ok: false, reason: forbidden };
  if (locations.folders.some((f) => path.startsWith(f))) return { ok: true };
  const slash = path.lastIndexOf('/');
  const dir = slash < 0 ? '' : path.slice(0, slash + 1);
  const name = path.slice(slash + 1);
  if (isTestName(name) && locations.beside.some((b) => b.folder === dir && b.extensions.includes(extensionOf(name)))) return { ok: true };
  return { ok: false, reason: `${path} is outside the test locations; the test reporter may write ${describeTestLocations(locations)}` };
}

/** One line for the user and the model: `files in tests/, e2e/, and test files (.ts) beside the code in src/`. */
export function describeTestLocations(locations: TestLocations): string {
  const parts: string[] = [];
  if (locations.folders.length) parts.push(`files in ${locations.folders.join(', ')}`);
  for (const b of locations.beside) parts.push(`test files (${b.extensions.join(', ')}) in ${b.folder || 'the root folder'}`);
  return parts.join('; ');
}

/** The sentence added to the test reporter's prompt. */
export function testLocationsNote(locations: TestLocations, language: PromptLanguage): string {
  return t('prompt.writeScope', { where: describeTestLocations(locations) }, language);
}

const extensionOf = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot).toLowerCase();
};
