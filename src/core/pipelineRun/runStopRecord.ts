import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lazySchema } from '../../shared/lazySchema';
import { toJsonText, writeFileAtomic } from '../fs/atomicWrite';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import type { RunMode, RunStop, StopReason } from './pipelineRun';

/**
 * Where a pipeline run (or Run Tasks started on its own) stopped, kept so a window reloaded (or another one) still tells the person
 * where they are and since when: "waiting for you since 14:02". A stop is a claim about the spec's
 * files as they were: it holds only while pipeline.state.json still says the same (its stage and
 * `updated_at`). A `git checkout` that moved the state back, an approval given since, a state
 * that no longer parses: the stop is no longer the spec's, and no view shows it (issue 44, defect 7).
 */
export interface RunStopRecord {
  /** The spec directory, absolute. */
  dir: string;
  mode: RunMode;
  /** Which run stopped: Run Tasks started on its own (the palette, the tree); absent: Run Pipeline. Its one action runs the same again. */
  by?: 'run-tasks';
  /** When the run stopped (ISO). */
  at: string;
  /** pipeline.state.json when the run stopped. */
  state: StateFacts;
  stop: RunStop;
}

/** What the stop is checked against: the recorded stage and the state's last write. */
export interface StateFacts {
  stage: string;
  updatedAt: string | null;
}

/** The spec's state facts now; undefined when its stage cannot be known (no state, or one that does not parse). */
export function stateFacts(stage: string | null, snapshot: Pick<SpecSnapshot, 'state'>): StateFacts | undefined {
  if (stage === null || !snapshot.state) return undefined;
  return { stage, updatedAt: snapshot.state.updated_at ?? null };
}

/** The record, if it still describes the spec's files; a record of other files is no stop of this spec. */
export function currentStop(record: RunStopRecord | undefined, now: StateFacts | undefined): RunStopRecord | undefined {
  if (!record || !now) return undefined;
  return record.state.stage === now.stage && record.state.updatedAt === now.updatedAt ? record : undefined;
}

/** Stops the person is asked to act on: not the end of the pipeline, nor a Stop they pressed themselves. */
export const waitsForPerson = (reason: StopReason): boolean => reason !== 'done' && reason !== 'stopped';

// zod is loaded on the first read, not with the extension (lazySchema).
const RECORD = lazySchema((z) => {
  const stageRecord = z.object({
    stage: z.string(),
    work: z.string(),
    startedAt: z.string(),
    ms: z.number(),
    rounds: z.number(),
    tokens: z.number(),
    wrote: z.array(z.string()),
    transcript: z.array(z.string()),
    file: z.string().optional(),
  });

  return z.object({
    dir: z.string(),
    mode: z.enum(['supervised', 'autopilot']),
    by: z.literal('run-tasks').optional(),
    at: z.string(),
    state: z.object({ stage: z.string(), updatedAt: z.string().nullable() }),
    stop: z.object({
      reason: z.string(),
      stage: z.string(),
      message: z.string(),
      file: z.string().optional(),
      stages: z.array(stageRecord),
    }),
  });
});

/** The most records kept: the newest, one per spec. */
const KEPT = 100;

/**
 * The stops of this machine's runs, one per spec, in one file of the extension's storage (as the
 * runs under way are kept: absolute spec directories, so the windows of several workspaces share
 * it). Not in the spec: it is where this person's run stopped, not a loom artifact to commit.
 */
export class RunStopsFile {
  private readonly file: string;
  private records?: Map<string, RunStopRecord>;

  constructor(storageDir: string) {
    this.file = join(storageDir, 'pipeline-stops.json');
  }

  /** The records, read once; a missing or unreadable file is none (it only ever says where runs stopped). */
  private all(): Map<string, RunStopRecord> {
    if (this.records) return this.records;
    this.records = new Map();
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(this.file, 'utf8'));
    } catch {
      return this.records;
    }
    for (const r of Array.isArray(raw) ? raw : []) {
      const parsed = RECORD().safeParse(r);
      if (parsed.success) this.records.set(parsed.data.dir, parsed.data as RunStopRecord);
    }
    return this.records;
  }

  get(dir: string): RunStopRecord | undefined {
    return this.all().get(dir);
  }

  /** The newest stop of each spec, the newest first. */
  list(): RunStopRecord[] {
    return [...this.all().values()].sort((a, b) => b.at.localeCompare(a.at));
  }

  put(record: RunStopRecord): void {
    const all = this.all();
    all.delete(record.dir);
    all.set(record.dir, record);
    this.save();
  }

  forget(dir: string): void {
    if (this.all().delete(dir)) this.save();
  }

  private save(): void {
    const kept = this.list().slice(0, KEPT);
    this.records = new Map(kept.map((r) => [r.dir, r]));
    writeFileAtomic(this.file, toJsonText(kept));
  }
}
