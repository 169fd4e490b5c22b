import type { Handoff } from '../files/handoff';
import type { TraceabilityLedger } from '../files/traceability';
import { fingerprints } from './taskHandoff';

/**
 * `handoffs/executing.json`, the stage's summary for what follows (loom step 10): finished
 * tasks, the verification command, how traceability.json was filled, key artifacts and the
 * risks left. Task artifacts are repository-relative, fingerprinted in the worktree for the
 * extension and by loom's rule when written; the report and its log are spec-relative
 * (traceability.json is never fingerprinted: executing updates it legitimately).
 */
export interface ExecutingHandoffInput {
  finishedTasks: readonly string[];
  skippedTasks: readonly string[];
  taskHandoffs: ReadonlyMap<string, Handoff>;
  verificationCommand?: string;
  testReport: { verdict: 'PASS' | 'FAIL'; file: string; evidenceFile?: string };
  /** Behaviors of the finished tasks, with what traceability.json now says about them. */
  behaviors: readonly string[];
  traceability?: TraceabilityLedger;
  worktree: string;
  now: string;
}

export function buildExecutingHandoff(input: ExecutingHandoffInput): Handoff {
  const artifacts = new Set<string>();
  const risks: string[] = [];
  for (const task of input.finishedTasks) {
    const h = input.taskHandoffs.get(task);
    for (const a of h?.artifacts ?? []) artifacts.add(a);
    const notes = h?.notes === undefined ? [] : Array.isArray(h.notes) ? h.notes : [h.notes];
    for (const n of notes) if (n.trim() && !n.startsWith('refreshed ')) risks.push(`${task}: ${n.trim()}`);
  }
  for (const t of input.skippedTasks) risks.push(`${t} was skipped after the circuit breaker; its behaviors are not implemented`);
  if (input.testReport.verdict !== 'PASS') risks.push(`${input.testReport.file} says FAIL`);

  const wanted = new Set(input.behaviors);
  const traceability_changes: { requirement: string; behavior: string; tasks: string[]; tests: string[]; evidence: string[] }[] = [];
  for (const entry of input.traceability?.requirements ?? []) {
    for (const [behavior, b] of Object.entries(entry.behaviors ?? {})) {
      if (wanted.has(behavior)) traceability_changes.push({ requirement: entry.id, behavior, tasks: b.tasks, tests: b.tests, evidence: b.evidence });
    }
  }
  const taskArtifacts = [...artifacts].sort();
  const specArtifacts = [input.testReport.file, ...(input.testReport.evidenceFile ? [input.testReport.evidenceFile] : [])];
  const complete = input.skippedTasks.length === 0 && input.testReport.verdict === 'PASS';
  return {
    stage: 'executing',
    status: complete ? 'done' : 'partial',
    summary: `${input.finishedTasks.length} task${input.finishedTasks.length === 1 ? '' : 's'} finished and reviewed${input.skippedTasks.length ? `, ${input.skippedTasks.length} skipped` : ''}; test report ${input.testReport.verdict}${input.verificationCommand ? ` (${input.verificationCommand})` : ''}`,
    artifacts: [...specArtifacts, ...taskArtifacts],
    finished_tasks: [...input.finishedTasks],
    skipped_tasks: [...input.skippedTasks],
    verification_command: input.verificationCommand ?? null,
    traceability_changes,
    key_artifacts: taskArtifacts.slice(0, 30),
    remaining_risks: risks,
    written_at: input.now,
    // loom's artifact_fingerprints are added when it is written (taskHandoff.writeHandoff).
    worktree_fingerprints: fingerprints(input.worktree, taskArtifacts),
  };
}
