import { REVIEW_COMMENTS_FILE, type ReviewThread } from './reviewComments';
import { readReviewComments } from './reviewStore';
import { snapshotFact } from '../specdir/snapshotFacts';
import type { SpecSnapshot } from '../specdir/specSnapshot';

/** An open review thread as a refusal or a question names it. */
export interface OpenThreadNote {
  file: string;
  /** `spec.md:12`, `plan.md:3-5` */
  place: string;
  /** The thread's first comment, on one line. */
  comment: string;
}

/** `spec.md:12` or `plan.md:3-5`, as a refusal or a warning names a thread. */
export const threadPlace = (t: Pick<ReviewThread, 'file' | 'line' | 'end_line'>) => (t.line === t.end_line ? `${t.file}:${t.line}` : `${t.file}:${t.line}-${t.end_line}`);

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * The open review threads on `files` (spec-relative; a folder ends in `/`), read from the spec's
 * review-comments.json. Only a spec that has the file is read; one that does not parse holds no
 * thread that can be counted (it is reported where comments are shown).
 */
export function openThreadsOn(snapshot: Pick<SpecSnapshot, 'dir' | 'specDir' | 'files'>, files: readonly string[]): OpenThreadNote[] {
  if (!snapshot.files.has(REVIEW_COMMENTS_FILE) || files.length === 0) return [];
  const threads = reviewThreadsOf(snapshot);
  if (!threads) return [];
  return threads
    .filter((th) => th.status === 'open' && files.some((f) => f === th.file || (f.endsWith('/') && th.file.startsWith(f))))
    .map((th) => ({ file: th.file, place: threadPlace(th), comment: oneLine(th.comments[0]?.body ?? '') }));
}

/**
 * The spec's review threads as this read of the spec holds them (a fact of the snapshot, read
 * once: snapshotFacts.ts); undefined when review-comments.json does not parse.
 */
export function reviewThreadsOf(snapshot: Pick<SpecSnapshot, 'dir' | 'specDir'>): readonly ReviewThread[] | undefined {
  return snapshotFact(snapshot, 'reviewThreads', () => {
    try {
      return readReviewComments(snapshot).threads;
    } catch {
      return undefined;
    }
  });
}
