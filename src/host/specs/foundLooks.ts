import type { SpecEvaluation } from '../../core/port/views';
import { TimeSlice } from './timeSlice';

/**
 * What the look at every spec found (the worker, or this thread from the evaluation cache): the
 * specs looked at, and their results, kept until `handOn` begins and then handed on as they come.
 */
export class FoundLooks {
  /** The specs looked at, or found unreadable. */
  readonly looked = new Set<string>();
  private readonly waiting: [string, SpecEvaluation][] = [];
  private apply?: (dir: string, evaluation: SpecEvaluation) => void;

  /** A spec's look: handed on now if handing on has begun, else kept until then. */
  add(dir: string, evaluation: SpecEvaluation): void {
    this.looked.add(dir);
    if (this.apply) this.apply(dir, evaluation);
    else this.waiting.push([dir, evaluation]);
  }

  /** The spec could not be read: nobody looks at it again. */
  unreadable(dir: string): void {
    this.looked.add(dir);
  }

  /**
   * Hands on what was kept, a slice at a time, what comes in meanwhile joining the queue until it
   * is empty; from then on each look is handed on as it comes.
   */
  async handOn(apply: (dir: string, evaluation: SpecEvaluation) => void, stopped: () => boolean): Promise<void> {
    const slice = new TimeSlice();
    while (this.waiting.length && !stopped()) {
      const [dir, evaluation] = this.waiting.shift()!;
      apply(dir, evaluation);
      if (slice.due()) await slice.yield();
    }
    this.apply = apply;
  }
}
