import { AUTHORING, mayWrite } from '../authoring/stageCommands';
import { REPORT_FILES } from '../files/report';
import type { PipelineDefinition } from '../pipeline/pipelineDefinition';

/**
 * The spec files people review like a pull request: those a stage produces for a person to read
 * (spec.md, requirements.json, plan.md, task files, the review request and the reports). State
 * files, handoffs and evidence are loom's bookkeeping and take no comments.
 */
const REVIEWABLE = /^(?:spec\.md|requirements\.json|plan\.md|tasks\/T[1-9]\d*\.md|qa-[^/]+\.md|manual-checklist\.md)$/;

export function isReviewableFile(specRelative: string): boolean {
  return REVIEWABLE.test(specRelative) || (REPORT_FILES as readonly string[]).includes(specRelative);
}

/**
 * The stage whose output a file is: the stage whose @loom command drafts it, else the first stage
 * of the pipeline that declares it as an output (a folder declares the files under it).
 */
export function stageOfFile(def: PipelineDefinition | undefined, file: string): string | undefined {
  const drafted = Object.values(AUTHORING).find((c) => mayWrite(c, file));
  if (drafted) return drafted.stage;
  return def?.stages.find((s) => s.outputs.some((o) => o === file || (o.endsWith('/') && file.startsWith(o))))?.id;
}
