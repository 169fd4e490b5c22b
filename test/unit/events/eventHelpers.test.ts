import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Disposable, Event } from 'vscode';
import { debounceEvent, eventToPromise, filterEvent, onceEvent, when } from '../../../src/host/events';

/** An emitter keeping the contract of vscode.EventEmitter: listeners in order, `thisArgs`, disposables. */
function emitter<T>() {
  const listeners = new Set<(e: T) => void>();
  const event: Event<T> = (listener, thisArgs, disposables) => {
    const bound = (e: T) => listener.call(thisArgs, e);
    listeners.add(bound);
    const subscription: Disposable = { dispose: () => listeners.delete(bound) };
    disposables?.push(subscription);
    return subscription;
  };
  return {
    event,
    fire: (e: T) => [...listeners].forEach((l) => l(e)),
    get listening() {
      return listeners.size;
    },
  };
}

describe('filterEvent', () => {
  it('passes on only what it keeps, with the listener’s this, and its subscription ends with dispose', () => {
    const source = emitter<number>();
    const seen: number[] = [];
    const owner = { seen };
    const disposables: Disposable[] = [];
    const sub = filterEvent(source.event, (n) => n % 2 === 0)(
      function (this: typeof owner, n) {
        this.seen.push(n);
      },
      owner,
      disposables,
    );
    [1, 2, 3, 4].forEach(source.fire);
    assert.deepEqual(seen, [2, 4]);
    assert.equal(disposables.length, 1, 'the subscription joins the caller’s disposables');
    sub.dispose();
    source.fire(6);
    assert.deepEqual(seen, [2, 4]);
    assert.equal(source.listening, 0);
  });
});

describe('onceEvent and eventToPromise', () => {
  it('hears the first event only, and lets go of the source', () => {
    const source = emitter<string>();
    const seen: string[] = [];
    onceEvent(source.event)((s) => seen.push(s));
    source.fire('a');
    source.fire('b');
    assert.deepEqual(seen, ['a']);
    assert.equal(source.listening, 0);
  });

  it('resolves with the next event', async () => {
    const source = emitter<number>();
    const next = eventToPromise(filterEvent(source.event, (n) => n > 1));
    source.fire(1);
    source.fire(2);
    source.fire(3);
    assert.equal(await next, 2);
    assert.equal(source.listening, 0);
  });
});

describe('when', () => {
  it('resolves at once when the condition holds, else on the first event after which it holds', async () => {
    const source = emitter<void>();
    let done = false;
    await when(() => true, source.event);
    assert.equal(source.listening, 0, 'nothing listens when nothing has to wait');
    let resolved = false;
    const waiting = when(() => done, source.event).then(() => (resolved = true));
    source.fire();
    await Promise.resolve();
    assert.equal(resolved, false, 'an event while the condition does not hold is not the end');
    done = true;
    source.fire();
    await waiting;
    assert.equal(resolved, true);
    assert.equal(source.listening, 0);
  });
});

describe('debounceEvent', () => {
  it('delivers the last event of a burst once quiet, reads the delay at each event, and waits no longer than maxWait', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    const source = emitter<number>();
    const seen: number[] = [];
    let delay = 100;
    const sub = debounceEvent(source.event, () => delay, 250)((n) => seen.push(n));
    source.fire(1);
    t.mock.timers.tick(60);
    source.fire(2);
    t.mock.timers.tick(99);
    assert.deepEqual(seen, [], 'each event restarts the quiet');
    t.mock.timers.tick(1);
    assert.deepEqual(seen, [2], 'one delivery, the last event, 100 ms after it');

    // A source that never goes quiet: heard 250 ms after the burst began.
    for (let i = 0; i < 6; i++) {
      source.fire(10 + i);
      t.mock.timers.tick(50);
    }
    assert.deepEqual(seen, [2, 14], 'delivered at 250 ms, with the event last heard before then');
    t.mock.timers.tick(100);
    assert.deepEqual(seen, [2, 14, 15], 'the next burst began with the event after the delivery');

    delay = 10;
    source.fire(20);
    t.mock.timers.tick(10);
    assert.deepEqual(seen, [2, 14, 15, 20], 'a new delay takes effect at the next event');

    source.fire(30);
    sub.dispose();
    t.mock.timers.tick(1000);
    assert.deepEqual(seen, [2, 14, 15, 20], 'ending the subscription cancels what waits');
    assert.equal(source.listening, 0);
  });

  it('without maxWait, a steady source is heard only when it stops', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    const source = emitter<number>();
    const seen: number[] = [];
    debounceEvent(source.event, 30)((n) => seen.push(n));
    for (let i = 0; i < 100; i++) {
      source.fire(i);
      t.mock.timers.tick(20);
    }
    assert.deepEqual(seen, []);
    t.mock.timers.tick(10);
    assert.deepEqual(seen, [99]);
  });
});
