import type { SpecPipeline } from '../repository/specPipeline';
import type { Answer } from './answer';
import type { Intent, RequestOptions } from './intent';

/**
 * The one way in for every surface (the palette and the views, `@loom`, the `#loom…` tools, MCP,
 * the CLI): the surface resolves the spec, sends the intent, and renders the answer its own way.
 * It checks nothing itself: every rule is a guard of the spec's actor, over one snapshot of the
 * spec's files and the team's rules, so a rule added there holds on every surface at once.
 */
export function request<I extends Intent>(spec: SpecPipeline, intent: I, options: RequestOptions = {}): Promise<Answer<I['type']>> {
  return spec.request(intent, options);
}

export type { Answer, Changed, NeedsConfirmation, Refused, Remedy } from './answer';
export type { ApprovalChannel, Approver, Confirmation, Intent, IntentType, RequestOptions } from './intent';
