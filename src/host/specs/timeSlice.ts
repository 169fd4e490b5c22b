const SLICE_MS = 8;

/** A turn of the event loop. */
export const nextTick = () => new Promise<void>((r) => setImmediate(r));

/**
 * Reading specs gives the event loop back every few milliseconds, not after every spec: typing
 * and painting stay smooth, and a thousand specs do not wait a thousand turns of a busy loop.
 */
export class TimeSlice {
  private started = performance.now();

  due(): boolean {
    return performance.now() - this.started >= SLICE_MS;
  }

  /**
   * A turn of the event loop, to be awaited only when `due`: an `await` even of nothing ends the
   * synchronous run, and what waits for its end (the Problems panel's batch, say) would then go
   * out once per spec instead of once per slice.
   */
  async yield(): Promise<void> {
    await nextTick();
    this.started = performance.now();
  }
}
