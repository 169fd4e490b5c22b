/** The groups tools come in, as loom names them; `meta` is always listed. */
export const TOOL_GROUPS = ['meta', 'session', 'context', 'pipeline', 'memory'] as const;
export type ToolGroup = (typeof TOOL_GROUPS)[number];

/**
 * One connection's state, as loom's SessionStore keeps it: the spec it is attached to and the
 * tool groups it loaded. A stdio server has one connection, so one session per process.
 */
export class McpSession {
  specDir?: string;
  readonly loadedGroups = new Set<ToolGroup>(['meta']);
  /** Calls per tool, kept only with LOOM_TELEMETRY=1. */
  readonly calls = new Map<string, { count: number; errors: number }>();

  constructor(
    readonly root: string,
    readonly lazyTools: boolean,
    readonly telemetry: boolean,
  ) {}

  isListed(group: ToolGroup): boolean {
    return !this.lazyTools || this.loadedGroups.has(group);
  }

  record(tool: string, refused: boolean): void {
    if (!this.telemetry) return;
    const c = this.calls.get(tool) ?? { count: 0, errors: 0 };
    c.count++;
    if (refused) c.errors++;
    this.calls.set(tool, c);
  }
}
