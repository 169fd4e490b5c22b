import { readFileSync } from 'node:fs';
import { splitTestRef } from '../../files/traceability';
import type { FixItem } from '../dispatch/fixInstructions';
import { isTestPath } from '../tools/testFiles';
import { WorktreeBoundary } from '../tools/worktreeBoundary';
import { isFile } from '../../fs/isFile';
import { testRefThroughWorktree } from '../../trace/testRefs';
import { t, type Language } from '../../messages';

/**
 * Before a task may be done, each of its behaviors needs a persistent test file that exists
 * (loom: "禁止在未补齐 traceability.json behavior 级 tests 与 evidence 时把 task 标记为 done").
 * A behavior's tests are those the implementer named for it (`## Tests`), kept only when the
 * file exists in the worktree; when it named none, a test file the task added or changed that
 * mentions the behavior id counts.
 */
export interface BehaviorTestsInput {
  behaviors: readonly string[];
  declared: ReadonlyMap<string, readonly string[]>;
  /** Worktree-relative files the task added or modified. */
  changedFiles: readonly string[];
  worktree: string;
}

export interface BehaviorTests {
  tests: Map<string, string[]>;
  missing: string[];
}

export function behaviorTests(input: BehaviorTestsInput): BehaviorTests {
  const boundary = new WorktreeBoundary(input.worktree);
  const existing = (ref: string) => {
    const r = boundary.resolve(splitTestRef(ref).file);
    return r.ok && isFile(r.abs) ? r : undefined;
  };
  const changedTests = input.changedFiles.filter(isTestPath);
  const contents = new Map<string, string>();
  const textOf = (rel: string) => {
    let t = contents.get(rel);
    if (t === undefined) {
      const r = existing(rel);
      t = r ? safeRead(r.abs) : '';
      contents.set(rel, t);
    }
    return t;
  };
  const tests = new Map<string, string[]>();
  const missing: string[] = [];
  for (const b of input.behaviors) {
    let refs = (input.declared.get(b) ?? []).filter((ref) => existing(ref)).map((ref) => ref.replace(/\\/g, '/'));
    if (refs.length === 0) refs = changedTests.filter((f) => textOf(f).includes(b));
    if (refs.length) tests.set(b, [...new Set(refs)]);
    else missing.push(b);
  }
  return { tests, missing };
}

/**
 * The tests found in the worktree, as traceability.json records them: loom looks for a test in
 * the spec directory and the repository that holds specs/ (traceability.js
 * resolveProjectReference), never in a feature worktree, so each is named through the worktree
 * from that root (`.worktree/<date>-<name>/test/x.test.js`, or `../…` for a worktree outside the
 * repository), `#name` kept. Loom's checks, and ours, then find it before the feature is merged.
 */
export function testsAsRecorded(specDir: string, worktree: string, tests: readonly string[]): string[] {
  return tests.map((ref) => testRefThroughWorktree(specDir, worktree, ref));
}

export function missingTestFixItems(missing: readonly string[], lang: Language): FixItem[] {
  return missing.map((behavior) => ({
    problem: t('fixItem.noPersistentTest', { behavior }, lang),
    severity: t('fixItem.blocker', {}, lang),
    direction: t('fixItem.noPersistentTest.direction', { behavior }, lang),
  }));
}

function safeRead(p: string): string {
  try {
    return readFileSync(p, 'utf8');
  } catch {
    return '';
  }
}
