/**
 * Delayed cache files are written at once when they add up to more than this: the look at a
 * thousand specs after start-up writes as it goes instead of holding a thousand files' text.
 */
const MAX_PENDING_BYTES = 256 * 2 ** 10;

/**
 * Cache files written a moment after they are made rather than when (the extension host: the
 * first rows of the tree and a reload's look are not kept waiting for the disk), each key's last
 * text only. Without a delay every file is written at once. A write that fails (a read-only or
 * full disk) only loses its file, the cache being slower next time: nothing here throws, a write
 * from the timer included.
 */
export class DelayedWrites {
  /** Files written since it was made (a write that failed is not counted). */
  written = 0;
  private readonly pending = new Map<string, string>();
  private pendingBytes = 0;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly write: (key: string, data: string) => void,
    private readonly delayMs: number | undefined,
  ) {}

  /** Writes `data` under `key` now, or once the delay is over. */
  put(key: string, data: string): void {
    if (this.delayMs === undefined) return this.writeNow(key, data);
    this.pendingBytes += data.length - (this.pending.get(key)?.length ?? 0);
    this.pending.set(key, data);
    if (this.pendingBytes > MAX_PENDING_BYTES) return this.flush();
    if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), this.delayMs);
      this.timer.unref?.();
    }
  }

  /**
   * What is under `key`: the text still waiting to be written, which is newer than the store's
   * (read again within the delay), else what `fromStore` reads; undefined when that throws.
   */
  read(key: string, fromStore: () => string | undefined): string | undefined {
    const waiting = this.pending.get(key);
    if (waiting !== undefined) return waiting;
    try {
      return fromStore();
    } catch {
      return undefined;
    }
  }

  /** Forgets what waits under `key` (its spec is gone). */
  drop(key: string): void {
    this.pendingBytes -= this.pending.get(key)?.length ?? 0;
    this.pending.delete(key);
  }

  /** Writes what is still waiting (on deactivation, say). */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const pending = [...this.pending];
    this.pending.clear();
    this.pendingBytes = 0;
    for (const [key, data] of pending) this.writeNow(key, data);
  }

  private writeNow(key: string, data: string): void {
    try {
      this.write(key, data);
      this.written++;
    } catch {
      // Lost: the next load parses or evaluates again.
    }
  }
}
