/**
 * Through what a person's word (or an agent's report of it) reached the actor, as the stage
 * history records it (`approved_by.through`): the palette and Loom's views, an MCP client's
 * elicitation, VS Code's tool confirmation, a terminal, or an agent's word over MCP.
 */
export type ApprovalChannel = 'palette' | 'elicitation' | 'tool-confirmation' | 'cli' | 'mcp-agent-word';

/** Who approved a move and through what, as the stage history keeps it beside loom's `approval`. */
export interface ApprovedBy {
  by: 'person' | 'agent';
  through?: ApprovalChannel;
}
