import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Requirement } from '../../files/requirements';
import type { TaskFile } from '../../files/taskFile';
import type { TraceabilityLedger } from '../../files/traceability';
import { testRefInWorktree } from '../../trace/testRefs';
import { byTaskNumber } from '../../specdir/loadSpec';
import type { SpecSnapshot } from '../../specdir/specSnapshot';
import type { PromptContext, PromptTask } from './promptBuilder';
import { detectLanguage, loadPromptTemplates, type PromptLanguage, type PromptTemplates } from './prompts/promptTemplates';

/**
 * Everything the executing stage reads besides the state files: plan.md, the task files as
 * written, spec.md, requirements.json, `.loom/contexts/subagent-context.md`,
 * `.loom/rules/constitution.md`, and the prompt templates in the spec's language.
 */
export const SUBAGENT_CONTEXT_FILE = '.loom/contexts/subagent-context.md';
export const CONSTITUTION_FILE = '.loom/rules/constitution.md';

export interface ExecutingInputs {
  specName: string;
  planText: string;
  specText: string;
  subagentContext: string;
  constitution: string;
  tasks: TaskFile[];
  taskTexts: ReadonlyMap<string, string>;
  requirements: Requirement[];
  language: PromptLanguage;
  templates: PromptTemplates;
}

const read = (path: string) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
};

export function readExecutingInputs(snapshot: SpecSnapshot, options: { language?: PromptLanguage } = {}): ExecutingInputs {
  const specText = read(join(snapshot.dir, 'spec.md'));
  const language = options.language ?? detectLanguage(specText);
  const tasks = [...snapshot.tasks.values()].sort((a, b) => byTaskNumber(a.id, b.id));
  const taskTexts = new Map(tasks.map((t) => [t.id, read(join(snapshot.repoRoot, t.file))]));
  return {
    specName: snapshot.name,
    planText: read(join(snapshot.dir, 'plan.md')),
    specText,
    subagentContext: read(join(snapshot.repoRoot, SUBAGENT_CONTEXT_FILE)),
    constitution: read(join(snapshot.repoRoot, CONSTITUTION_FILE)),
    tasks,
    taskTexts,
    requirements: snapshot.requirements?.requirements ?? [],
    language,
    templates: loadPromptTemplates(snapshot.repoRoot, language),
  };
}

/** The prompt context, with traceability as it is now (it grows as tasks finish). */
/**
 * What every prompt shares. traceability.json names the loop's tests through the worktree, so
 * that loom finds them from the repository; the subagents work inside the worktree, so they see
 * those refs relative to it (testRefInWorktree).
 */
export function promptContextOf(inputs: ExecutingInputs, snapshot: SpecSnapshot, testCommand: string | undefined, worktree?: string): PromptContext {
  return {
    specName: inputs.specName,
    language: inputs.language,
    templates: inputs.templates,
    specText: inputs.specText,
    subagentContext: inputs.subagentContext,
    constitution: inputs.constitution,
    requirements: inputs.requirements,
    traceability: worktree && snapshot.traceability ? inWorktree(snapshot.traceability, snapshot.dir, worktree) : snapshot.traceability,
    testCommand,
  };
}

export function promptTaskOf(inputs: ExecutingInputs, task: TaskFile): PromptTask {
  return {
    id: task.id,
    title: task.title,
    text: inputs.taskTexts.get(task.id) ?? `# ${task.title}\n\n${task.description}`,
    owns: task.owns,
    requirements: task.requirements,
    behavior_ids: task.behavior_ids,
  };
}

function inWorktree(ledger: TraceabilityLedger, specDir: string, worktree: string): TraceabilityLedger {
  const tests = (refs: readonly string[]) => refs.map((ref) => testRefInWorktree(specDir, worktree, ref));
  return {
    ...ledger,
    requirements: ledger.requirements.map((entry) => ({
      ...entry,
      tests: tests(entry.tests),
      ...(entry.behaviors ? { behaviors: Object.fromEntries(Object.entries(entry.behaviors).map(([id, b]) => [id, { ...b, tests: tests(b.tests) }])) } : {}),
    })),
  };
}
