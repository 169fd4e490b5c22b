import { mayWrite, type AuthoringCommand } from '../authoring/stageCommands';
import { stageOf } from '../pipeline/pipelineDefinition';
import type { TransitionCheck } from '../pipeline/transitionCheck';
import type { SpecPipeline } from '../repository/specPipeline';

/**
 * What a drafting stage needs before a model can help, read off its forward move's check: a run
 * asks for what is really missing before it asks for a model (issue 44, defect 5).
 */
export type StageNeed =
  /** The stage's files are written and pass its checks; only the person's approval of its gate is missing. */
  | { kind: 'approval'; to: string; outputs: readonly string[] }
  /** An approval already given went stale: only the person renews it; a draft would not. */
  | { kind: 'stale-approval'; reasons: readonly string[] }
  /** A file this stage's drafting may not write is missing or wrong: the person's (or an earlier stage's) to fix. */
  | { kind: 'input'; file: string; reasons: readonly string[] }
  /** Every precondition holds; only the word to move on is missing (the run gives it in Autopilot, the person in Supervised). */
  | { kind: 'move' }
  /** The stage's own files are missing or do not pass: the model drafts them. */
  | { kind: 'draft' };

/** A file the stage's drafting writes: one the command may write or names as an output, or the stage's handoff (written with the drafts). */
function draftable(command: AuthoringCommand, stage: string, file: string): boolean {
  return mayWrite(command, file) || command.outputs.some((o) => o === file || (o.endsWith('/') && file.startsWith(o))) || file === `handoffs/${stage}.json`;
}

/** The failing guards of the move, confirmation and the compression word aside (the run gives both or asks for them). */
function unmetVerdicts(check: TransitionCheck) {
  return check.verdicts.filter(({ outcome }) => !outcome.ok && !outcome.needsConfirmation && !outcome.needsCompression);
}

export function stageNeed(spec: SpecPipeline, stage: string, command: AuthoringCommand): StageNeed {
  const forward = spec.next().find((c) => c.kind === 'forward');
  if (!forward) return { kind: 'draft' };
  if (forward.codes.includes('stale-approval')) return { kind: 'stale-approval', reasons: forward.unmet };
  if (forward.ready) {
    const gate = stageOf(spec.definition, stage);
    return gate?.humanApproval ? { kind: 'approval', to: forward.to, outputs: gate.outputs } : { kind: 'move' };
  }
  // A model drafting this stage cannot fix a file it may not write: the person is asked for it first.
  const foreign = unmetVerdicts(forward).find(({ outcome }) => outcome.file !== undefined && !draftable(command, stage, outcome.file));
  if (foreign) return { kind: 'input', file: foreign.outcome.file!, reasons: foreign.outcome.reasons };
  return { kind: 'draft' };
}
