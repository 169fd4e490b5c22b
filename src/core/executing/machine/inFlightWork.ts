/**
 * The promises of the invoked actors still running. Stopping an actor aborts its signal at once,
 * but the work only ends when the aborted request or child process has settled; whoever holds
 * the run lease waits for them before letting another run start on the same files.
 */
export class InFlightWork {
  private readonly pending = new Set<Promise<unknown>>();

  track<T>(work: Promise<T>): Promise<T> {
    this.pending.add(work);
    const forget = () => this.pending.delete(work);
    work.then(forget, forget);
    return work;
  }

  /** Resolves when every tracked piece of work has settled, whatever its result. */
  async settled(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }
}
