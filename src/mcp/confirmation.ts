import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

export type ConfirmationAnswer = { answer: 'accepted' } | { answer: 'declined'; why: string } | { answer: 'unavailable' };
export type PersonConfirmation = (message: string) => Promise<ConfirmationAnswer>;

/**
 * Asks the person through MCP elicitation when the client declared it: a yes/no form with the
 * question. A client that cannot elicit gets `unavailable`, and the tool tells the agent to ask
 * the user instead; a client whose elicitation fails counts as no.
 */
export function elicitationConfirmation(server: Server): PersonConfirmation {
  return async (message) => {
    if (!server.getClientCapabilities()?.elicitation) return { answer: 'unavailable' };
    try {
      const reply = await server.elicitInput({
        message,
        requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', title: 'Confirm', description: 'Yes: let the pipeline move on' } }, required: ['confirm'] },
      });
      if (reply.action === 'accept' && reply.content?.confirm === true) return { answer: 'accepted' };
      return { answer: 'declined', why: reply.action === 'accept' ? 'the user answered no' : `the user chose ${reply.action}` };
    } catch (e) {
      return { answer: 'declined', why: `the question could not be asked: ${e instanceof Error ? e.message : String(e)}` };
    }
  };
}
