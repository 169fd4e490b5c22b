import type { SpecPipeline } from '../repository/specPipeline';
import { stageWithRole } from '../pipeline/stageRoles';
import { recordedBaseline } from './baseline';
import type { DriftSubject } from './driftScan';
import { spokenFiles } from './spokenFiles';

/** A spec as drift reads it: synced when it is at the stage of its pipeline that syncs (loom's index-update). */
export function driftSubjectOf(spec: SpecPipeline): DriftSubject {
  const sync = stageWithRole(spec.definition, 'sync');
  const synced = sync !== undefined && spec.stage === sync.id;
  const snapshot = spec.snapshot;
  return {
    specDir: snapshot.specDir,
    synced,
    syncStage: sync?.id ?? 'synced',
    ...(synced && recordedBaseline(snapshot.state) ? { recorded: recordedBaseline(snapshot.state) } : {}),
    // Read when drift asks (while git's log runs): a spec read on demand reads its tasks and traceability then.
    files: synced ? () => spokenFiles(spec.snapshot) : [],
  };
}
