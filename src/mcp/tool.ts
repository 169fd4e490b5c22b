import type { z } from 'zod';
import type { PersonConfirmation } from './confirmation';
import type { ToolResult } from './results';
import type { McpSession, ToolGroup } from './session';

/** What a tool may use: the session, the person behind the client, and the clock. */
export interface ToolContext {
  session: McpSession;
  /** Asks the person at the client; `unavailable` when the client cannot ask (no elicitation). */
  confirm: PersonConfirmation;
  /** Every tool of the server, for the catalog. */
  tools: readonly LoomTool[];
  now(): string;
  /** How long a write waits for another process's run lock, in ms. */
  lockWaitMs: number;
}

/** One tool: loom's name and input property names, its group, and what it writes. */
export interface LoomTool<Input extends z.ZodObject = z.ZodObject> {
  name: string;
  group: ToolGroup;
  description: string;
  input: Input;
  /** Files it may write, spec- or repository-relative; none for a read-only tool. */
  writes: readonly string[];
  run(args: z.infer<Input>, ctx: ToolContext): ToolResult | Promise<ToolResult>;
}

/** Keeps each tool's argument type tied to its schema. */
export const defineTool = <Input extends z.ZodObject>(tool: LoomTool<Input>): LoomTool => tool as unknown as LoomTool;
