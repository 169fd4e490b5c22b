import type { PipelineState } from '../files/pipelineState';
import { WorkflowStepSchema, type WorkflowStep } from '../files/workflow';
import { lazySchema } from '../../shared/lazySchema';

/**
 * The steps recorded in `dynamic_steps`, which loom's engine uses instead of the workflow's
 * pipeline (`getSteps`); a bare string is read as a step id. Undefined when there are none.
 */
const DynamicStepsSchema = lazySchema((z) => z.array(WorkflowStepSchema()));

export function dynamicSteps(state: PipelineState | undefined): WorkflowStep[] | undefined {
  const raw = state?.dynamic_steps;
  if (!Array.isArray(raw) || raw.length === 0) return undefined;
  const parsed = DynamicStepsSchema().safeParse(raw.map((s) => (typeof s === 'string' ? { id: s } : s)));
  return parsed.success ? parsed.data : undefined;
}
