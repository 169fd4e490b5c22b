import type { Diagnostic } from '../diagnostics/diagnostic';
import type { ArtifactAnalysis, ConvergenceReport } from '../files/findings';
import type { Handoff } from '../files/handoff';
import type { PipelineState } from '../files/pipelineState';
import type { Report } from '../files/report';
import type { RequirementsLedger } from '../files/requirements';
import type { TaskFile } from '../files/taskFile';
import type { TaskState } from '../files/taskState';
import type { TraceabilityLedger } from '../files/traceability';

/** Whether a file the pipeline reads is there, and whether it could be read. */
export type FileCondition = 'missing' | 'ok' | 'invalid';

/**
 * Everything the core knows about one spec directory, read in one pass. Guards, batches, the
 * traceability matrix and every view derive their facts from this object.
 */
export interface SpecSnapshot {
  repoRoot: string;
  /** Absolute path of the spec directory. */
  dir: string;
  /** Repository-relative, e.g. `specs/2026-11-29+login`. */
  specDir: string;
  /** `2026-11-29+login` */
  name: string;
  /** Spec-relative paths of every file and folder (folders end in `/`). */
  files: ReadonlySet<string>;
  state?: PipelineState;
  /** `ok`, `missing`, or `invalid` (exists but is corrupt: never overwritten). */
  stateCondition: FileCondition;
  tasks: ReadonlyMap<string, TaskFile>;
  taskStates: ReadonlyMap<string, TaskState>;
  requirements?: RequirementsLedger;
  requirementsCondition: FileCondition;
  traceability?: TraceabilityLedger;
  traceabilityCondition: FileCondition;
  /** Keyed by the file name without `.json`: `T1`, `executing`, ... */
  handoffs: ReadonlyMap<string, Handoff>;
  reports: ReadonlyMap<string, Report>;
  artifactAnalysis?: ArtifactAnalysis;
  artifactAnalysisCondition: FileCondition;
  convergenceReport?: ConvergenceReport;
  convergenceReportCondition: FileCondition;
  /** Pid of a live `.loom-run.lock` holder other than us, if any. */
  lock?: { pid: number; stale: boolean; raw: string };
  /**
   * The problems of the spec's files: of every file for a spec read in full (loadSpec), of the
   * files read so far for one read on demand (readSpecOnDemand, `status`).
   */
  diagnostics: Diagnostic[];
  /**
   * A spec read on demand reads the files under `paths` now (spec-relative, a folder ends in `/`),
   * so that their problems are among `diagnostics`; a spec read in full has them already.
   */
  readInputs?(paths: readonly string[]): void;
  /** A spec read on demand reads every file it has not read yet (`status --detail full`). */
  readAll?(): void;
}
