import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isFile } from '../../fs/isFile';
import { behaviorTests } from '../evidence/behaviorClosure';
import type { TaskRunRecord } from './taskRunRecord';

/**
 * What a task that passed every check of "done" leaves for its completion (the handoff, the
 * traceability ledger): the files it changed, each behavior's tests and the test run kept as
 * evidence. It is recorded in the task's run record before the task leaves its close step, so a
 * run that crashed after that (at the checkpoint, waiting for its merge, while its worktree was
 * removed) completes it from disk; a state written before it was recorded derives it again from
 * the task's checkpoints, the worktree and the evidence folder.
 */
export interface TaskClosure {
  /** Worktree-relative files the task added or changed. */
  changed: string[];
  /** Behavior id → its tests, as found in the worktree. */
  tests: Map<string, string[]>;
  /** Spec-relative test log, when its tests were run. */
  evidence?: string;
}

/** The record with the closure in it, as it is persisted once the task's checks passed. */
export function recordClosure(record: TaskRunRecord, closure: TaskClosure): TaskRunRecord {
  return {
    ...record,
    artifacts: closure.changed,
    behavior_tests: Object.fromEntries(closure.tests),
    ...(closure.evidence ? { evidence: closure.evidence } : {}),
  };
}

export interface ClosureSources {
  task: string;
  behaviors: readonly string[];
  /** The worktree the task's work is in now (after a merge, the feature worktree). */
  worktree: string;
  /** Absolute spec directory (its `evidence/`). */
  specDir: string;
}

/** The task's closure: as recorded, or derived again for a state recorded before it was kept. */
export function closureOf(record: TaskRunRecord, from: ClosureSources): TaskClosure {
  if (record.artifacts) {
    return { changed: record.artifacts, tests: new Map(Object.entries(record.behavior_tests ?? {})), ...(record.evidence ? { evidence: record.evidence } : {}) };
  }
  // Its checkpoints hold what it changed; a deleted file is no artifact.
  const changed = [...new Set((record.checkpoints ?? []).flatMap((c) => c.files))].filter((f) => isFile(join(from.worktree, f)));
  const found = behaviorTests({ behaviors: from.behaviors, declared: new Map(Object.entries(record.declared_tests ?? {})), changedFiles: changed, worktree: from.worktree });
  const evidence = latestTestLog(from.specDir, from.task);
  return { changed, tests: found.tests, ...(evidence ? { evidence } : {}) };
}

/** The task's newest test log (`evidence/T1-tests-<time>.log`, its name sorting by time). */
function latestTestLog(specDir: string, task: string): string | undefined {
  let names: string[];
  try {
    names = readdirSync(join(specDir, 'evidence'));
  } catch {
    return undefined;
  }
  const latest = names
    .filter((n) => n.startsWith(`${task}-tests-`) && n.endsWith('.log'))
    .sort()
    .pop();
  return latest ? `evidence/${latest}` : undefined;
}
