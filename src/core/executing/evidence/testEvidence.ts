import { join } from 'node:path';
import { writeFileAtomic } from '../../fs/atomicWrite';
import { sha256OfFile } from '../../fs/sha256';
import type { TestRun } from './testRunner';

/**
 * A run of the project's test command, kept as evidence: `evidence/<name>-<time>.log` in the
 * spec directory, with the command and exit code at the top. Reports cite it by path and
 * sha256, so it is never rewritten after it is written.
 */
export interface EvidenceLog {
  /** Spec-relative, e.g. `evidence/T1-tests-2026-11-25T10-00-00-000Z.log`. */
  file: string;
  sha256: string;
  command: string;
  exitCode: number | null;
}

export function writeTestLog(specDirAbs: string, name: string, run: TestRun, now: string): EvidenceLog {
  const stamp = now.replace(/[:.]/g, '-');
  const file = `evidence/${name}-${stamp}.log`;
  const status = run.timedOut ? 'timed out' : `exit code ${run.exitCode}`;
  const text = `$ ${run.command}\n# ${now} · ${status} · ${run.durationMs} ms\n\n${run.output}${run.output.endsWith('\n') ? '' : '\n'}`;
  const abs = join(specDirAbs, file);
  writeFileAtomic(abs, text);
  return { file, sha256: sha256OfFile(abs) ?? '', command: run.command, exitCode: run.timedOut ? null : run.exitCode };
}

/** The end of a failing run, where test runners print their failures: for a fix item. */
export function failureExcerpt(run: TestRun, maxChars = 3000): string {
  const out = run.output.trimEnd();
  return out.length > maxChars ? `…${out.slice(-maxChars)}` : out;
}
