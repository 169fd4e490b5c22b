import type { Approver } from '../core/port/request';
import type { CliIo } from './io';

/**
 * Who gives the word of `approve` and `advance --confirm`: the person at the terminal when one is
 * attached, otherwise whatever runs the command (a script, CI, an agent's shell), which
 * `loom.approvals.requirePerson` does not take for the person.
 */
export const cliApprover = (io: CliIo): Approver => ({ by: io.terminal === true ? 'person' : 'agent', through: 'cli' });
