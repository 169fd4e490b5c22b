import { LoomError } from '../errors';
import { t as say } from '../messages';
import { insertItems, insertMember, jsonStyle, removeItems, type JsonStyle } from './jsonEdit';
import { memberOf, parseJsonTree, type JsonArray, type JsonNode, type JsonObject } from './jsonTree';
import { normalizeTaskRef } from './taskFile';
import { toTextEdits, type OffsetEdit, type TextEdit } from './textEdit';

/** What a quick fix changes in traceability.json. */
export type TraceabilityChange =
  /** Task references added to (or removed from) the `tasks` of a requirement, or of one of its behaviors. */
  | { op: 'add-tasks' | 'remove-tasks'; requirement: string; behavior?: string; tasks: readonly string[] }
  /** A requirement traceability.json lacks, with its tasks and the tasks of each behavior. */
  | { op: 'add-requirement'; requirement: string; tasks: readonly string[]; behaviors: readonly { id: string; tasks: readonly string[] }[] };

/** Loom reads the first of these a trace has (traceability.ts folds them the same way). */
const TASK_KEYS = ['tasks', 'task_ids'];
/** Keys a new `tasks` list goes before, to keep loom's order: id, tasks, tests, evidence, behaviors. */
const AFTER_TASKS = new Set(['tests', 'test_refs', 'test_ids', 'evidence', 'evidence_refs', 'receipts', 'behaviors']);

const sameTask = (a: string, b: string) => normalizeTaskRef(a).toUpperCase() === normalizeTaskRef(b).toUpperCase();

/** Numbers compare as numbers: `REQ-002` before `REQ-010`, `T2` before `T10`. */
const naturally = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });

/** Where `key` goes among `keys`: in order when they are in order already, else at the end. */
function sortedIndex(keys: readonly string[], key: string): number {
  const ordered = keys.every((k, i) => i === 0 || naturally(keys[i - 1], k) <= 0);
  if (!ordered) return keys.length;
  const i = keys.findIndex((k) => naturally(key, k) < 0);
  return i < 0 ? keys.length : i;
}

/**
 * The smallest edits to traceability.json's text that make `change`, keeping the file as written:
 * its indentation, line ends, key order, one-line or multi-line lists, the object or array form of
 * `requirements`, the `task_ids` alias and the `T1` or `T1.md` form of task references. New
 * requirements and behaviors go in id order when the file keeps them in order, else at the end.
 * No edits when there is nothing to do (the tasks are already there, or already gone). Text that is
 * not valid JSON, or a shape the change cannot be made in, throws a LoomError naming the file.
 */
export function traceabilityEdits(file: string, text: string, change: TraceabilityChange): TextEdit[] {
  const root = parseJsonTree(text);
  if (!root) throw new LoomError(say('files.notJsonNoEdit', { file }), file);
  const requirements = memberOf(root, 'requirements')?.value;
  if (requirements?.type !== 'object' && requirements?.type !== 'array') throw new LoomError(say('files.noRequirementsToEdit', { file }), file);
  const style = jsonStyle(text, root);
  const edits = editRequirements(file, text, requirements, change, style, referenceForm(root));
  return toTextEdits(file, text, edits);
}

/** The requirement's entry, in either form of `requirements`. */
function entryOf(requirements: JsonObject | JsonArray, id: string): JsonNode | undefined {
  if (requirements.type === 'object') return memberOf(requirements, id)?.value;
  return [...requirements.items].reverse().find((item) => {
    const own = memberOf(item, 'id')?.value;
    return own?.type === 'scalar' && own.value === id;
  });
}

function editRequirements(file: string, text: string, requirements: JsonObject | JsonArray, change: TraceabilityChange, style: JsonStyle, ref: (task: string) => string): OffsetEdit[] {
  const entry = entryOf(requirements, change.requirement);
  if (change.op === 'add-requirement') {
    if (entry) return [];
    const behaviors = Object.fromEntries(change.behaviors.map((b) => [b.id, { tasks: b.tasks.map(ref), tests: [], evidence: [] }]));
    const body = { tasks: change.tasks.map(ref), tests: [], evidence: [], behaviors };
    if (requirements.type === 'object') {
      const at = sortedIndex(
        requirements.members.map((m) => m.key),
        change.requirement,
      );
      return [insertMember(text, requirements, change.requirement, body, style, at)];
    }
    const ids = requirements.items.map((item) => memberOf(item, 'id')?.value).map((v) => (v?.type === 'scalar' ? String(v.value) : ''));
    return [insertItems(text, requirements, [{ id: change.requirement, ...body }], style, sortedIndex(ids, change.requirement))];
  }
  if (!entry) {
    if (change.op === 'remove-tasks') return [];
    throw new LoomError(say('files.requirementUntraced', { file, requirement: change.requirement }), file);
  }
  if (entry.type !== 'object') throw new LoomError(say('files.entryNotObject', { file, requirement: change.requirement }), file);
  let owner: JsonObject = entry;
  if (change.behavior !== undefined) {
    const behaviors = memberOf(entry, 'behaviors')?.value;
    const trace = memberOf(behaviors, change.behavior)?.value;
    if (!trace) {
      if (change.op === 'remove-tasks') return [];
      const body = { tasks: change.tasks.map(ref), tests: [], evidence: [] };
      if (!behaviors) return [insertMember(text, entry, 'behaviors', { [change.behavior]: body }, style)];
      if (behaviors.type !== 'object') throw new LoomError(say('files.behaviorsNotObject', { file, requirement: change.requirement }), file);
      return [
        insertMember(
          text,
          behaviors,
          change.behavior,
          body,
          style,
          sortedIndex(
            behaviors.members.map((m) => m.key),
            change.behavior,
          ),
        ),
      ];
    }
    if (trace.type !== 'object') throw new LoomError(say('files.traceNotObject', { file, behavior: change.behavior }), file);
    owner = trace;
  }
  const subject = change.behavior ?? change.requirement;
  const key = TASK_KEYS.find((k) => memberOf(owner, k));
  const list = key ? memberOf(owner, key)!.value : undefined;
  if (list && list.type !== 'array') throw new LoomError(say('files.listNotList', { file, key: String(key), subject }), file);
  const has = (task: string) => (list?.items ?? []).some((x) => x.type === 'scalar' && typeof x.value === 'string' && sameTask(x.value, task));
  if (change.op === 'remove-tasks') {
    return list ? removeItems(text, list, (x) => x.type === 'scalar' && typeof x.value === 'string' && change.tasks.some((t) => sameTask(t, x.value as string))) : [];
  }
  const added = [...new Set(change.tasks.filter((t) => !has(t)).map(ref))];
  if (added.length === 0) return [];
  if (list) return [insertItems(text, list, added, style)];
  const before = owner.members.findIndex((m) => AFTER_TASKS.has(m.key));
  return [insertMember(text, owner, 'tasks', added, style, before < 0 ? owner.members.length : before)];
}

/** Task references are written as the file already writes them: `T1`, or `T1.md` when its first one has the suffix. */
function referenceForm(root: JsonNode): (task: string) => string {
  const first = firstTaskReference(root);
  const suffix = first !== undefined && /\.md$/i.test(first.trim());
  return (task) => (suffix ? `${normalizeTaskRef(task)}.md` : normalizeTaskRef(task));
}

function firstTaskReference(node: JsonNode): string | undefined {
  if (node.type === 'object') {
    for (const m of node.members) {
      if (TASK_KEYS.includes(m.key) && m.value.type === 'array') {
        const item = m.value.items.find((x) => x.type === 'scalar' && typeof x.value === 'string');
        if (item?.type === 'scalar') return String(item.value);
      }
      const nested = firstTaskReference(m.value);
      if (nested !== undefined) return nested;
    }
  } else if (node.type === 'array') {
    for (const item of node.items) {
      const nested = firstTaskReference(item);
      if (nested !== undefined) return nested;
    }
  }
  return undefined;
}
