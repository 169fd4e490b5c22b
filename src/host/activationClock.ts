import { threadClock } from './threadClock';

/**
 * When the extension's bundle began to run (performance.now() of the extension host), imported
 * first by the entry (extensionEntry.ts) so that it is evaluated before the rest of it: activation cost
 * is then measured from the start of loading, not only inside activate().
 */
export const bundleStartedAt = performance.now();
/** The thread's clock then. */
export const threadAtStart = threadClock();
