import { type StageDefinition, stageOf } from '../core/port/reports';
import { type SpecPipeline, specTaskIds } from '../core/port/specs';

export const DEFAULT_HANDOFF_LIMIT = 5;

const stepView = (s: StageDefinition) => ({
  id: s.id,
  skill: s.skill ?? null,
  description: s.description ?? null,
  outputs: s.outputs,
  requires: s.requires,
  validators: s.validators,
  gate: s.humanApproval ? 'human-approval' : null,
  interactive: s.confirmation,
});

/** Handoffs newest first, in loom's compact form (tools.js compactHandoff). */
function handoffSummaries(spec: SpecPipeline) {
  return [...spec.snapshot.handoffs]
    .map(([id, h]) => ({ id, stage: h.stage ?? null, task_id: h.task_id ?? null, status: h.status, summary: h.summary, artifacts: h.artifacts, written_at: h.written_at ?? null }))
    .sort((a, b) => (b.written_at ?? '').localeCompare(a.written_at ?? ''));
}

export function tasksSummary(spec: SpecPipeline) {
  const counts = new Map<string, number>();
  const ids = specTaskIds(spec.snapshot);
  for (const id of ids) {
    const status = spec.snapshot.taskStates.get(id)?.status ?? 'pending';
    counts.set(status, (counts.get(status) ?? 0) + 1);
  }
  return { total: ids.length, ...Object.fromEntries(counts) };
}

/**
 * What to do now, with loom's keys (getStageContext plus the constraints tools.js adds): the
 * stage, its skill and step, whether it is a gate, the next stage and what still stands in the
 * way, the latest handoffs and the tasks. `next_unmet` and `needs_confirmation` are ours: the
 * same verdicts the sidebar shows.
 */
export function pipelineContext(spec: SpecPipeline, options: { full?: boolean; handoffLimit?: number } = {}) {
  const { snapshot, definition } = spec;
  const stage = spec.stage === null ? undefined : stageOf(definition, spec.stage);
  const forward = spec.next().find((c) => c.kind === 'forward');
  const nextStage = forward && forward.to !== spec.stage ? stageOf(definition, forward.to) : undefined;
  const handoffs = handoffSummaries(spec);
  const limit = options.full ? handoffs.length : (options.handoffLimit ?? DEFAULT_HANDOFF_LIMIT);
  const reads = ['spec.md', ...(stage?.requires ?? [])].filter((f, i, all) => snapshot.files.has(f) && all.indexOf(f) === i);
  return {
    spec_dir: snapshot.specDir,
    pipeline_type: definition.type,
    current_stage: spec.stage,
    current_skill: stage?.skill ?? null,
    current_step: stage ? stepView(stage) : null,
    is_gate: stage?.humanApproval ?? false,
    needs_confirmation: stage?.confirmation ?? false,
    next_stage: nextStage?.id ?? null,
    next_step: nextStage ? stepView(nextStage) : null,
    next_ready: forward?.ready ?? false,
    next_unmet: forward?.unmet ?? [],
    // loom 3's advance refuses without it (compression_required) where the step's outputs name handoffs/<stage>.json.
    compression_required: stage?.compressionRequired ?? false,
    handoffs_summary: handoffs.slice(0, limit),
    handoffs_truncated: handoffs.length > limit,
    handoffs_omitted: Math.max(0, handoffs.length - limit),
    recommended_reads: reads.map((f) => `${snapshot.specDir}/${f}`),
    constraints: { must_produce: stage?.outputs ?? [], must_not_skip: stage?.skill ? [stage.skill] : [], requires_files: stage?.requires ?? [] },
    forbidden_actions: [
      'Do not skip the current stage skill',
      'Do not advance without producing required outputs',
      'Do not write pipeline.state.json, task-states/ or progress.md by hand: use the loom_* tools',
      ...(stage?.confirmation ? ['Do not leave this stage without the user’s explicit confirmation'] : []),
      ...(stage?.compressionRequired ? ['Do not start the next stage before compressing closed-stage raw context'] : []),
    ],
    tasks_summary: tasksSummary(spec),
    // A file that cannot be read (a task state with a status loom does not know) counts as absent above: say so.
    file_problems: spec.diagnostics.filter((d) => d.severity === 'error').map((d) => ({ file: d.file, line: d.line, message: d.message })),
    started_at: snapshot.state?.started_at ?? null,
    updated_at: snapshot.state?.updated_at ?? null,
    detail: options.full ? 'full' : 'summary',
  };
}
