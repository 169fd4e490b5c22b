import { REQUIREMENTS_FILE } from '../files/requirements';
import type { PromptLanguage } from '../executing/dispatch/prompts/promptTemplates';
import { toJsonText } from '../fs/atomicWrite';
import { splitSpecName } from '../specdir/specName';
import { personFileStarter } from './personFileStarters';
import { specTemplate } from './specTemplate';

/**
 * What a spec file that does not exist yet starts as when the user asks to create it (the
 * refusal's "Create requirements.json", a missing output in the tree): a file of the right shape
 * with its places to fill marked `TODO`, the placeholder loom's checkStageOutputs refuses, so
 * that it cannot pass a gate untouched (personFileStarters: plan.md, the review files, the reports).
 * Files without a known shape start empty.
 */
export function starterText(file: string, spec: { name: string; pipelineType: string }, language: PromptLanguage): string | undefined {
  switch (file) {
    case 'spec.md':
      return specTemplate(splitSpecName(spec.name).feature, spec.name, spec.pipelineType, language);
    case REQUIREMENTS_FILE:
      return requirementsSkeleton(language);
    default:
      return personFileStarter(file, spec.name, language);
  }
}

const WORDS: Readonly<Record<PromptLanguage, { acceptance: string; behavior: string; outcome: string }>> = {
  en: {
    acceptance: 'TODO: what shows that the requirement is met, observable from outside',
    behavior: 'TODO: the behavior in one sentence',
    outcome: 'TODO: the input and the outcome that prove it',
  },
  zh: {
    acceptance: 'TODO：从外部可观察到的、说明需求已满足的结果',
    behavior: 'TODO：用一句话描述该 behavior',
    outcome: 'TODO：证明它的输入与结果',
  },
};

/**
 * requirements.json with one requirement and one behavior, as loom's requirements.schema.json
 * wants them (ids `REQ-001` and `REQ-001-B01`, status `failing`, a category of the 15), so that it
 * reads without an error while its `TODO` words still stop the gate.
 */
function requirementsSkeleton(language: PromptLanguage): string {
  const w = WORDS[language];
  return toJsonText({
    requirements: [
      {
        id: 'REQ-001',
        status: 'failing',
        types: ['functional'],
        required_categories: ['happy-path'],
        acceptance: [w.acceptance],
        behaviors: [{ id: 'REQ-001-B01', category: 'happy-path', description: w.behavior, status: 'failing', acceptance: [w.outcome] }],
      },
    ],
  });
}
