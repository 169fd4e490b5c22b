/** One move of a spec's pipeline, as a person was asked to confirm it. */
export interface PipelineStep {
  from: string;
  to: string;
}

/**
 * The steps a person was asked to confirm in VS Code's tool confirmation. VS Code asks in
 * `prepareInvocation` and calls `invoke` only once the person agreed; the step asked about goes
 * with the intent as the person's word, and the spec's actor takes it only for that very step
 * (the spec may have moved in between). A question counts once.
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

  /** Nothing is being asked for the spec (the actor will refuse, or needs no word). */
  forget(tool: string, specDir: string): void {
    this.asked.delete(ConfirmedSteps.key(tool, specDir));
  }

  /** The step the person confirmed, if they were asked; used up either way. */
  take(tool: string, specDir: string): PipelineStep | undefined {
    const key = ConfirmedSteps.key(tool, specDir);
    const asked = this.asked.get(key);
    this.asked.delete(key);
    return asked;
  }
}
