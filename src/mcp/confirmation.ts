import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { t } from '../core/port/messages';

export type ConfirmationAnswer = { answer: 'accepted' } | { answer: 'declined'; why: string } | { answer: 'unavailable' };
export type PersonConfirmation = (message: string) => Promise<ConfirmationAnswer>;

/**
 * Asks the person through MCP elicitation when the client declared it: a yes/no form with the
 * question, in the display language. A client that cannot elicit gets `unavailable`, and the tool tells the agent to ask
 * the user instead; a client whose elicitation fails counts as no.
 */
export function elicitationConfirmation(server: Server): PersonConfirmation {
  return async (message) => {
    if (!server.getClientCapabilities()?.elicitation) return { answer: 'unavailable' };
    try {
      const reply = await server.elicitInput({
        message,
        requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', title: t('mcp.ask.field'), description: t('mcp.ask.fieldDescription') } }, required: ['confirm'] },
      });
      if (reply.action === 'accept' && reply.content?.confirm === true) return { answer: 'accepted' };
      const why = reply.action === 'accept' ? t('mcp.ask.answeredNo') : reply.action === 'cancel' ? t('mcp.ask.cancelled') : t('mcp.ask.declined');
      return { answer: 'declined', why };
    } catch (e) {
      return { answer: 'declined', why: t('mcp.ask.failed', { detail: e instanceof Error ? e.message : String(e) }) };
    }
  };
}
