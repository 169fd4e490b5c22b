// The rule on traceability.json.
import { t as text } from '../../messages';
import { normalizeTaskRef } from '../../files/taskFile';
import { TRACEABILITY_FILE } from '../../files/traceability';
import { removeTraceTasks } from '../findingFix';
import { traceRequirementFix, traceTasksFix } from '../findingSupport';
import { taskFile, type AnalysisFacts } from './analysisFacts';

/** traceability.json traces every requirement and behavior, to tasks that exist, and nothing else. */
export function traceabilityTracesEverything({ s, lines, add, language, reqById, knownReqs, tasksOfReq, traceByReq }: AnalysisFacts): void {
  if (s.traceability) {
    for (const id of knownReqs) {
      const entry = traceByReq.get(id);
      if (!entry) {
        add(
          {
            kind: 'missing',
            severity: 'blocker',
            requirement_id: id,
            artifact: TRACEABILITY_FILE,
            message: text('analysis.untraced', { id }, language),
            location: lines.at(TRACEABILITY_FILE, lines.traceLine(id)),
            suggested_fix: { action: 'update_traceability', details: text('analysis.traceWithTasks', { id }, language) },
          },
          traceRequirementFix(s, id),
        );
        continue;
      }
      if (entry.tasks.length === 0) {
        add(
          {
            kind: 'missing',
            severity: 'error',
            requirement_id: id,
            artifact: TRACEABILITY_FILE,
            message: text('analysis.tracedToNoTask', { id }, language),
            location: lines.at(TRACEABILITY_FILE, lines.traceLine(id)),
            suggested_fix: {
              action: 'update_traceability',
              details: tasksOfReq(id).length ? text('analysis.addTasksTo', { tasks: tasksOfReq(id).join(', '), id }, language) : text('analysis.addItsTasks', { id }, language),
            },
          },
          traceTasksFix(s, id),
        );
      }
      const traced = entry.behaviors ?? {};
      for (const b of reqById.get(id)?.behaviors ?? []) {
        const own = Object.hasOwn(traced, b.id) ? traced[b.id] : undefined;
        if (!own || own.tasks.length === 0) {
          add(
            {
              kind: 'missing',
              severity: 'error',
              requirement_id: id,
              behavior_id: b.id,
              artifact: TRACEABILITY_FILE,
              message: own ? text('analysis.tracedToNoTask', { id: b.id }, language) : text('analysis.untraced', { id: b.id }, language),
              location: lines.at(TRACEABILITY_FILE, lines.traceLine(id, own ? b.id : undefined)),
              suggested_fix: { action: 'update_traceability', details: text('analysis.traceToImplementer', { id: b.id }, language) },
            },
            traceTasksFix(s, id, b.id),
          );
        }
      }
      for (const bid of Object.keys(traced).filter((x) => reqById.has(id) && !(reqById.get(id)?.behaviors ?? []).some((b) => b.id === x))) {
        add({
          kind: 'unrequested',
          severity: 'error',
          requirement_id: id,
          artifact: TRACEABILITY_FILE,
          message: text('analysis.foreignBehavior', { behavior: bid, id }, language),
          location: lines.at(TRACEABILITY_FILE, lines.traceLine(id, bid)),
          suggested_fix: { action: 'update_traceability', details: text('analysis.removeFromTrace', { id: bid }, language) },
        });
      }
      const refs = [...entry.tasks.map((t) => ({ t, b: undefined as string | undefined })), ...Object.entries(traced).flatMap(([bid, bt]) => bt.tasks.map((t) => ({ t, b: bid })))];
      for (const { t, b } of refs) {
        const ref = normalizeTaskRef(t);
        if (!/^T\d+$/i.test(ref) || s.tasks.has(ref.toUpperCase())) continue;
        add(
          {
            kind: 'missing',
            severity: 'error',
            requirement_id: id,
            ...(b ? { behavior_id: b } : {}),
            artifact: TRACEABILITY_FILE,
            message: text('analysis.traceTaskMissing', { id: b ?? id, task: t, file: taskFile(ref.toUpperCase()) }, language),
            location: lines.at(TRACEABILITY_FILE, lines.traceLine(id, b)),
            suggested_fix: { action: 'update_traceability', details: text('analysis.removeTraceTask', { task: t, id: b ?? id }, language) },
          },
          removeTraceTasks(id, b, [t]),
        );
      }
    }
    for (const e of s.traceability.requirements.filter((x) => !knownReqs.has(x.id))) {
      add({
        kind: 'unrequested',
        severity: 'error',
        requirement_id: e.id,
        artifact: TRACEABILITY_FILE,
        message: text('analysis.unrequestedTrace', { id: e.id }, language),
        location: lines.at(TRACEABILITY_FILE, lines.traceLine(e.id)),
        suggested_fix: { action: 'update_traceability', details: text('analysis.removeFromTrace', { id: e.id }, language) },
      });
    }
  }
}
