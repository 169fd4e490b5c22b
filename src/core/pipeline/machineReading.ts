import type { SpecSnapshot } from '../specdir/specSnapshot';
import { chooseTransition } from './chooseTransition';
import { stageOnDisk, type PipelineContext, type PipelineEvent } from './machineTypes';
import type { PipelineDefinition } from './pipelineDefinition';
import { personRequired } from './personRule';
import { completesPipeline } from './refusals';

/** How one pipeline's machine reads a request: where the files put the spec, and whether the person's word goes with the move. */
export interface MachineReading {
  /** The stage the files put the spec at (null: unknown), worked out once per snapshot. */
  diskStage(facts: SpecSnapshot): string | null;
  /** Whether the person's word is with the event for the step the machine is about to take. */
  confirms(context: PipelineContext, event: PipelineEvent): boolean;
}

/** The caller's word that the closed stage's context was compressed comes only with the move itself. */
export const compressedBy = (event: PipelineEvent) => (event.type === 'ADVANCE' || event.type === 'APPROVE') && event.compressionConfirmed === true;

export function machineReading(def: PipelineDefinition): MachineReading {
  // Every state's FILES_CHANGED asks where the files put the spec: work it out once per snapshot
  // (without a state file it is inferred from the artifacts, by the guards).
  let lastDisk: { facts: SpecSnapshot; stage: string | null } | undefined;
  const diskStage = (facts: SpecSnapshot) => (lastDisk?.facts === facts ? lastDisk.stage : (lastDisk = { facts, stage: stageOnDisk(def, facts) }).stage);

  /** The step an event asks for from where the files put the spec: chosen by the one chooser. */
  const stepOf = (context: PipelineContext, event: PipelineEvent): { from: string; to: string } | undefined => {
    const from = diskStage(context.facts);
    if (from === null) return undefined;
    if (event.type === 'RECOVER') return { from, to: event.to };
    if (event.type !== 'ADVANCE' && event.type !== 'APPROVE') return undefined;
    if (event.type === 'ADVANCE' && completesPipeline(def, from, event.to)) return { from, to: from };
    const chosen = chooseTransition(def, from, event.type === 'APPROVE' ? { approve: true } : { to: event.to }, context.verdicts);
    return chosen ? { from, to: chosen.to } : undefined;
  };

  /**
   * Given up front (`true`), or for this very step (the spec has not moved since they were
   * asked). Recovering is confirmed by asking for it. An agent's report counts only where loom
   * takes one: passing a gate with `approve`.
   */
  const confirms = (context: PipelineContext, event: PipelineEvent): boolean => {
    if (event.type === 'RECOVER') return true;
    if (event.type !== 'ADVANCE' && event.type !== 'APPROVE') return false;
    // The team's rule (loom.approvals.requirePerson): an agent's report of the person's word is no word.
    if (personRequired(context.verdicts.rules, event)) return false;
    const word = event.confirm;
    if (word === true) return true;
    if (!word) return false;
    if (word.by === 'agent' && event.type !== 'APPROVE') return false;
    const step = stepOf(context, event);
    return step !== undefined && step.from === word.from && step.to === word.to;
  };

  return { diskStage, confirms };
}
