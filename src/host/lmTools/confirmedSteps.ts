/** One move of a spec's pipeline, as a person was asked to confirm it. */
export interface PipelineStep {
  from: string;
  to: string;
}

/**
 * The steps a person was asked to confirm in VS Code's tool confirmation. VS Code asks in
 * `prepareInvocation` and calls `invoke` only once the person agreed, but the spec may have moved
 * in between (Loom: Advance in the tree, loom in a terminal): a confirmation counts only for the
 * very step it named, and only once.
 */
export class ConfirmedSteps {
  private readonly asked = new Map<string, PipelineStep>();

  private static key(tool: string, specDir: string): string {
    return `${tool}\u0000${specDir}`;
  }

  /** The person is being asked to confirm `step` of the spec; a question asked before for it no longer counts. */
  ask(tool: string, specDir: string, step: PipelineStep): void {
    this.asked.set(ConfirmedSteps.key(tool, specDir), { from: step.from, to: step.to });
  }

  /** Nothing is being asked for the spec (the tool will refuse or choose nothing). */
  forget(tool: string, specDir: string): void {
    this.asked.delete(ConfirmedSteps.key(tool, specDir));
  }

  /** Whether the person confirmed exactly `step`; the confirmation is used up either way. */
  take(tool: string, specDir: string, step: PipelineStep): boolean {
    const key = ConfirmedSteps.key(tool, specDir);
    const asked = this.asked.get(key);
    this.asked.delete(key);
    return asked !== undefined && asked.from === step.from && asked.to === step.to;
  }
}
