import type { ConfirmedBy } from '../port/intent';
import type { ApprovedBy } from './approver';
import type { PipelineEvent } from './machineTypes';
import type { TeamRules } from './teamRules';

/**
 * The word on a move is only an agent's report that the person agreed: given by an agent
 * (`by: 'agent'`, as over MCP without elicitation) or through a channel no person answered (a
 * CLI with no terminal). loom takes such a word for a gate; `loom.approvals.requirePerson` does not.
 */
export function agentWordOnly(event: PipelineEvent): boolean {
  if (event.type !== 'ADVANCE' && event.type !== 'APPROVE') return false;
  if (event.confirm === undefined) return false;
  return (event.confirm !== true && event.confirm.by === 'agent') || event.approver?.by === 'agent';
}

/** The team's rule refuses this word: the move waits for the person's own answer. */
export const personRequired = (rules: TeamRules, event: PipelineEvent): boolean => rules.requirePerson === true && agentWordOnly(event);

/**
 * What the history records of the word that passed a confirmed stage: who and through what, as the
 * surface said (every surface of the extension, the CLI and MCP say it); an agent's word is
 * recorded as such even when no surface said through what.
 */
export function approvedByOf(event: PipelineEvent): ApprovedBy | undefined {
  if (event.type !== 'ADVANCE' && event.type !== 'APPROVE') return undefined;
  const by: ConfirmedBy = agentWordOnly(event) ? 'agent' : 'person';
  if (event.approver) return { by, through: event.approver.through };
  return by === 'agent' ? { by } : undefined;
}
