/**
 * Items `0 … size-1` shared by threads through one SharedArrayBuffer: each thread claims the next
 * item with `next(owner)` and works on it. A claim is final (compare-and-swap on the item's owner),
 * so every item is worked on by exactly one thread, and a thread that is done can claim what is
 * still free (`claim`) or see what another has taken and not yet answered (`ownerOf`).
 */
export class ClaimQueue {
  private readonly cursor: Int32Array;
  private readonly owners: Int32Array;

  /** A queue of `size` free items. */
  static create(size: number): ClaimQueue {
    return new ClaimQueue(new SharedArrayBuffer(4 * (1 + size)));
  }

  /** The same queue in another thread, from its buffer. */
  constructor(readonly buffer: SharedArrayBuffer) {
    this.cursor = new Int32Array(buffer, 0, 1);
    this.owners = new Int32Array(buffer, 4);
  }

  get size(): number {
    return this.owners.length;
  }

  /** The next item `owner` (not 0) claimed, or undefined when none is left. */
  next(owner: number): number | undefined {
    for (;;) {
      const i = Atomics.add(this.cursor, 0, 1);
      if (i >= this.size) return undefined;
      if (this.claim(i, owner)) return i;
    }
  }

  /** Whether `owner` now holds item `i`: it was free. */
  claim(i: number, owner: number): boolean {
    return Atomics.compareExchange(this.owners, i, 0, owner) === 0;
  }

  /** Who holds item `i` (0: nobody yet). */
  ownerOf(i: number): number {
    return Atomics.load(this.owners, i);
  }
}
