import type { Language } from '../../messages';
import type { Requirement } from '../../files/requirements';
import type { TaskFile } from '../../files/taskFile';
import type { TraceEntry } from '../../files/traceability';
import type { SpecSnapshot } from '../../specdir/specSnapshot';
import type { FindingList, SpecLines } from '../findingSupport';
import { requirementIdsInSpec } from '../requirementTaskClosure';

/** What the rules of the analysis read, derived once from the spec; `add` records a finding. */
export interface AnalysisFacts {
  s: SpecSnapshot;
  lines: SpecLines;
  add: FindingList['add'];
  /** The findings' wording: FINDINGS_FILE_LANGUAGE for the file, the display language for the user. */
  language: Language;
  specText: string | undefined;
  requirements: readonly Requirement[];
  /** The requirement ids spec.md names, in its order. */
  specIds: readonly string[];
  specSet: ReadonlySet<string>;
  reqById: ReadonlyMap<string, Requirement>;
  /** Named by spec.md or declared in requirements.json. */
  knownReqs: ReadonlySet<string>;
  behaviors: readonly { req: string; b: Requirement['behaviors'][number] }[];
  behaviorIds: ReadonlySet<string>;
  tasks: readonly TaskFile[];
  /** The line of a key of a task's frontmatter (1 when it has none). */
  taskLine(id: string, key: string): number;
  /** The tasks that name a requirement. */
  tasksOfReq(id: string): string[];
  /** The behaviors some task names. */
  mapped: ReadonlySet<string>;
  traceByReq: ReadonlyMap<string, TraceEntry>;
}

export function analysisFacts(s: SpecSnapshot, lines: SpecLines, list: FindingList, language: Language): AnalysisFacts {
  const specText = lines.text('spec.md');
  const requirements = s.requirements?.requirements ?? [];
  const specIds = specText === undefined ? [] : requirementIdsInSpec(specText);
  const reqById = new Map(requirements.map((r) => [r.id, r]));
  const behaviors = requirements.flatMap((r) => r.behaviors.map((b) => ({ req: r.id, b })));
  const tasks = [...s.tasks.values()];
  return {
    s,
    lines,
    add: list.add.bind(list),
    language,
    specText,
    requirements,
    specIds,
    specSet: new Set(specIds),
    reqById,
    knownReqs: new Set([...specIds, ...reqById.keys()]),
    behaviors,
    behaviorIds: new Set(behaviors.map((x) => x.b.id)),
    tasks,
    taskLine: (id, key) => s.tasks.get(id)?.keyLines.get(key) ?? 1,
    tasksOfReq: (id) => tasks.filter((t) => t.requirements.includes(id)).map((t) => t.id),
    mapped: new Set(tasks.flatMap((t) => t.behavior_ids)),
    traceByReq: new Map((s.traceability?.requirements ?? []).map((e) => [e.id, e])),
  };
}

/** `tasks/T1.md`: where a task's findings point. */
export const taskFile = (id: string) => `tasks/${id}.md`;
