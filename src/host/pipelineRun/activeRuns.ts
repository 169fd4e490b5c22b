import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { toJsonText, writeFileAtomic } from '../../core/port/files';

/** A pipeline run under way: its spec directory (absolute) and its mode. */
export interface ActiveRun {
  dir: string;
  mode: 'supervised' | 'autopilot';
}

const ACTIVE_RUNS = z.array(z.object({ dir: z.string(), mode: z.enum(['supervised', 'autopilot']) }));

/**
 * The pipeline runs under way, kept in one file of the extension's global storage, which lives
 * where the extension host runs: a window reloaded (or opened from another browser, for
 * code-server, whose workspace state stays in the browser) finds them there and resumes them from
 * loom's files. Spec directories are absolute, so the windows of different workspaces share the
 * file without mixing their runs.
 */
export class ActiveRunsFile {
  private readonly file: string;

  constructor(storageDir: string) {
    this.file = join(storageDir, 'pipeline-runs.json');
  }

  /** The runs recorded; a missing or unreadable file is none (it only ever says what to resume). */
  read(): ActiveRun[] {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      return [];
    }
    try {
      const parsed = ACTIVE_RUNS.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data : [];
    } catch {
      return [];
    }
  }

  remember(run: ActiveRun): void {
    writeFileAtomic(this.file, toJsonText([...this.read().filter((r) => r.dir !== run.dir), run]));
  }

  forget(dir: string): void {
    const runs = this.read();
    if (runs.some((r) => r.dir === dir)) writeFileAtomic(this.file, toJsonText(runs.filter((r) => r.dir !== dir)));
  }
}
