import type { SpecLocation } from '../store/runLock';
import { updateReviewComments } from './reviewStore';
import { replyToThread, setThreadStatus } from './threadEdits';

export interface RefinedThreads {
  /** Ids of the threads answered and resolved. */
  resolved: string[];
}

/**
 * After the refined files were written: every open thread on a written file gets a reply saying
 * what changed (the model's own line for it when it gave one) and is resolved. Threads on files
 * the user did not accept stay open.
 */
export function resolveRefinedThreads(
  spec: SpecLocation,
  threadIds: readonly string[],
  writtenFiles: readonly string[],
  answers: ReadonlyMap<string, string>,
  reply: { author: string; now: string; changed: (file: string, answer: string | undefined) => string },
): RefinedThreads {
  const written = new Set(writtenFiles);
  return updateReviewComments(spec, (c) => {
    const resolved: string[] = [];
    for (const t of c.threads) {
      if (!threadIds.includes(t.id) || t.status !== 'open' || !written.has(t.file)) continue;
      replyToThread(c, t.id, reply.author, reply.changed(t.file, answers.get(t.id)), reply.now);
      setThreadStatus(c, t.id, 'resolved');
      resolved.push(t.id);
    }
    return { resolved };
  });
}
