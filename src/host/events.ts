import type { Disposable, Event } from 'vscode';

/**
 * Small combinators over `Event<T>`, in the manner of VS Code's git extension (`util.ts`): code
 * that waits for a phase or for quiet reads as one line with them, where a promise resolved by
 * hand, or a poll, hides the order of things. Only `vscode`'s types are used, so they run in
 * plain Node too.
 */

/** The events of `event` that `keep` accepts. */
export function filterEvent<T>(event: Event<T>, keep: (e: T) => boolean): Event<T> {
  return (listener, thisArgs = null, disposables?) => event((e) => keep(e) && listener.call(thisArgs, e), null, disposables);
}

/** The first event of `event` only: the subscription ends with it. (An event never fires while a listener subscribes.) */
export function onceEvent<T>(event: Event<T>): Event<T> {
  return (listener, thisArgs = null, disposables?) => {
    let fired = false;
    const subscription = event(
      (e) => {
        if (fired) return;
        fired = true;
        subscription.dispose();
        return listener.call(thisArgs, e);
      },
      null,
      disposables,
    );
    return subscription;
  };
}

/**
 * The last event of each burst of `event`, once it has been quiet for `delayMs` (read at each
 * event, so a setting takes effect at once), and at the latest `maxWaitMs` after the burst's first
 * event: a source that never goes quiet is still heard. Ending the subscription cancels what waits.
 */
export function debounceEvent<T>(event: Event<T>, delayMs: number | (() => number), maxWaitMs = Infinity): Event<T> {
  return (listener, thisArgs = null, disposables?) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let burstStarted = 0;
    const deliver = (e: T) => {
      timer = undefined;
      listener.call(thisArgs, e);
    };
    const inner = event((e) => {
      const now = Date.now();
      if (timer === undefined) burstStarted = now;
      else clearTimeout(timer);
      const delay = typeof delayMs === 'function' ? delayMs() : delayMs;
      timer = setTimeout(deliver, Math.max(0, Math.min(delay, burstStarted + maxWaitMs - now)), e);
    });
    const own: Disposable = {
      dispose: () => {
        clearTimeout(timer);
        timer = undefined;
        inner.dispose();
      },
    };
    disposables?.push(own);
    return own;
  };
}

/** The next event of `event`, as a promise. */
export function eventToPromise<T>(event: Event<T>): Promise<T> {
  return new Promise<T>((resolve) => onceEvent(event)(resolve));
}

/**
 * Resolves at once when `done()` holds, else on the first event of `event` after which it holds:
 * "wait until idle" as one line, instead of a promise per phase resolved by hand or a poll.
 */
export function when(done: () => boolean, event: Event<unknown>): Promise<void> {
  return done() ? Promise.resolve() : eventToPromise(filterEvent(event, done)).then(() => undefined);
}

/** Resolves after `ms` milliseconds. */
export function delay(ms: number): Promise<void> {
  return new Promise<void>((resolve) => setTimeout(resolve, ms));
}
