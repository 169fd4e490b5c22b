import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseWorkflow, WORKFLOW_FILE, WorkflowStepSchema, type WorkflowStep } from '../files/workflow';
import type { PipelineDefinition } from '../pipeline/pipelineDefinition';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { dynamicSteps } from './dynamicSteps';

/** The steps the spec follows now, as loom's getSteps: its dynamic_steps, else the workflow's pipeline, else the stages of the schema. */
export function currentSteps(spec: { snapshot: SpecSnapshot; definition: PipelineDefinition; pipelineType: string }): WorkflowStep[] {
  const chosen = dynamicSteps(spec.snapshot.state);
  if (chosen) return chosen;
  let text: string | undefined;
  try {
    text = readFileSync(join(spec.snapshot.repoRoot, WORKFLOW_FILE), 'utf8');
  } catch {
    // no workflow: the schema's stages
  }
  const steps = text === undefined ? undefined : parseWorkflow(WORKFLOW_FILE, text).workflow?.pipelines?.[spec.pipelineType]?.steps;
  return steps?.length
    ? steps
    : spec.definition.stages.map((s) => WorkflowStepSchema().parse({ id: s.id, ...(s.skill ? { skill: s.skill } : {}), ...(s.description ? { description: s.description } : {}) }));
}
