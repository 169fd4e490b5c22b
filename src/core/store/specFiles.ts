import { join } from 'node:path';
import { writeFileAtomic } from '../fs/atomicWrite';
import { withRunLock, type SpecLocation } from './runLock';

/** One file a writer of the spec made: its path in the spec directory and its text. */
export interface SpecFile {
  file: string;
  text: string;
}

/** Where a validator, verification or the review's answer hands the files it made (the state store's writeReport). */
export type SpecFileWriter = (files: readonly SpecFile[]) => void;

/**
 * The one writer of the reports (artifact-analysis.json, convergence-report.json, the omission
 * hunt's, verify-report.md, review-response.md, test-report.md) and what a validator writes with
 * them (converge's appended tasks, plan.md, traceability.json): each atomically, all under the
 * spec's run lock (the request's, when it holds it).
 */
export function writeSpecFiles(spec: SpecLocation, files: readonly SpecFile[]): void {
  if (files.length === 0) return;
  withRunLock(spec, () => {
    for (const f of files) writeFileAtomic(join(spec.dir, f.file), f.text);
  });
}
