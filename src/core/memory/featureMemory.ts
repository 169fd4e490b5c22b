import { join } from 'node:path';
import { readOptionalText } from '../fs/readOptional';
import { t, type Language } from '../messages';
import { featureOf } from '../specdir/specName';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { addMemoryEntries, MEMORY_STORE_FILE, type MemoryEntry, type NewMemoryEntry } from './memoryStore';

/** Headings whose items are the feature's decisions (loom's templates: 决策, Decisions, ADR, trade-offs). */
const DECISION_HEADING = /决策|决定|取舍|decision|\badr\b|trade-?offs?/i;
/** Headings whose items are pitfalls met on the way (踩坑, Pitfalls, Lessons learned, Gotchas). */
const PITFALL_HEADING = /踩坑|教训|pitfalls?|gotchas?|lessons?/i;
/** Headings whose first item (or the one marked chosen) is the approach decided on (spec.md's options). */
const OPTIONS_HEADING = /options considered|方案对比|方案选择|备选方案|alternatives/i;
/** The option a spec marks as the one taken: "(chosen)", "（采用）". */
const CHOSEN = /\((?:chosen|selected|picked)\)|（(?:采用|选定|选择)）|\bchosen\b/i;
/** The artifacts loom's index-update skill reads the feature's conclusions from, in that order. */
const SOURCES = ['spec.md', 'plan.md', 'review-response.md', 'progress.md'];
/** An entry says one thing: a longer item is cut where loom's memory view would wrap it away. */
const MAX_CONTENT = 400;

interface Item {
  kind: 'decision' | 'pitfall' | 'option';
  text: string;
  file: string;
}

/** The list items (and paragraphs) under each decision or pitfall heading of a Markdown file. */
function itemsOf(file: string, text: string): Item[] {
  const items: Item[] = [];
  let kind: Item['kind'] | undefined;
  let level = 0;
  let inFence = false;
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence) continue;
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const depth = heading[1].length;
      // A sub-heading stays in its section; a heading of the same or a higher level ends it.
      if (kind && depth > level) continue;
      kind = DECISION_HEADING.test(heading[2]) ? 'decision' : PITFALL_HEADING.test(heading[2]) ? 'pitfall' : OPTIONS_HEADING.test(heading[2]) ? 'option' : undefined;
      level = depth;
      continue;
    }
    if (!kind) continue;
    const item = /^\s{0,3}(?:[-*+]|\d+[.)])\s+(.*\S)\s*$/.exec(line);
    if (item) items.push({ kind, text: item[1], file });
    else if (line.trim() && /^\s/.test(line) && items.length && items[items.length - 1].kind === kind) items[items.length - 1].text += ` ${line.trim()}`;
  }
  return items;
}

const clean = (s: string) => {
  const one = s
    .replace(/\s+/g, ' ')
    .replace(/^\[[ xX]\]\s*/, '')
    .trim();
  return one.length > MAX_CONTENT ? `${one.slice(0, MAX_CONTENT - 1)}…` : one;
};

/**
 * What this feature leaves loom's structured memory, as loom's index-update skill writes it: each
 * decision (type 决策) and each pitfall (type 踩坑) its artifacts record under a decisions or
 * pitfalls heading, and each task that needed retries or was blocked (a pitfall: what blocked it,
 * how often it was retried). Tagged with the feature, its context the spec directory.
 */
export function featureMemoryEntries(snapshot: SpecSnapshot, language: Language): NewMemoryEntry[] {
  const feature = featureOf(snapshot.name);
  const tags = [feature, 'loom-sync'];
  const context = snapshot.specDir;
  const entries: NewMemoryEntry[] = [];
  for (const file of SOURCES) {
    const text = readOptionalText(join(snapshot.dir, file));
    if (!text) continue;
    const items = itemsOf(file, text);
    for (const item of items) {
      if (item.kind === 'option') continue;
      const content = clean(item.text);
      if (content) entries.push({ type: item.kind === 'decision' ? '决策' : '踩坑', content: `${feature}: ${content}`, tags, context: `${context}/${item.file}` });
    }
    // The approach a spec chose among its options is a decision too: the one marked chosen, else the first.
    const options = items.filter((i) => i.kind === 'option');
    const chosen = options.find((o) => CHOSEN.test(o.text)) ?? options[0];
    const option = chosen && clean(chosen.text.replace(/\*\*/g, ''));
    if (option) entries.push({ type: '决策', content: clean(t('memory.sync.chosenOption', { feature, option }, language)), tags, context: `${context}/${file}` });
  }
  for (const [id, state] of [...snapshot.taskStates].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))) {
    const retries = state.retry_count ?? 0;
    if (retries === 0 && !state.blocker) continue;
    // A task file's heading is `# T1: Greet by name`: the id is said once.
    const title = (snapshot.tasks.get(id)?.title ?? id).replace(/^T\d+[a-z]?\s*[:：]\s*/i, '') || id;
    const where = { tags, context: `${context}/task-states/${id}.state.json` };
    // Said only as far as the state knows it: a review that passed in the end says nothing more than the retries.
    const review = state.last_reviewer_result?.trim();
    if (retries > 0) {
      const said = { feature, task: id, title, retries };
      const content = !review
        ? t('memory.sync.taskRetried', said, language)
        : /^pass$/i.test(review)
          ? t('memory.sync.taskRetriedPassed', said, language)
          : t('memory.sync.taskRetriedReview', { ...said, review }, language);
      entries.push({ type: '踩坑', content: clean(content), ...where });
    }
    if (state.blocker?.trim()) entries.push({ type: '踩坑', content: clean(t('memory.sync.taskBlocked', { feature, task: id, title, blocker: state.blocker.trim() }, language)), ...where });
  }
  // One entry per thing said: the same item in spec.md and plan.md is remembered once.
  return entries.filter((e, i) => entries.findIndex((o) => o.type === e.type && o.content === e.content) === i);
}

/** An entry the store already holds (same type and words): a sync run again adds nothing twice. */
const alreadyRemembered = (entry: NewMemoryEntry, store: readonly MemoryEntry[]) => store.some((m) => m.type === entry.type && m.content === entry.content);

/** What a sync did to loom's memory: the store (repository-relative), the entries it found and those it added. */
export interface FeatureMemorySync {
  file: string;
  found: number;
  added: MemoryEntry[];
}

/** The feature's memory update: written through the one writer of the store, loom_add_memory's own. */
export function syncFeatureMemory(snapshot: SpecSnapshot, language: Language, now: string, waitMs: number): FeatureMemorySync {
  const entries = featureMemoryEntries(snapshot, language);
  return { file: MEMORY_STORE_FILE, added: addMemoryEntries(snapshot.repoRoot, entries, now, waitMs, alreadyRemembered), found: entries.length };
}

const TYPE_LABELS = new Map([
  ['决策', 'memory.type.decision'],
  ['踩坑', 'memory.type.pitfall'],
  ['偏好', 'memory.type.preference'],
  ['状态', 'memory.type.status'],
  ['adr', 'memory.type.adr'],
] as const);

/**
 * An entry's type as the person reads it, in the spec's language. The store keeps loom's own type
 * words (决策, 踩坑: loom_add_memory's enum, what loom's memory summary filters on), whatever the language.
 */
export function memoryTypeLabel(type: string, language: Language): string {
  const key = TYPE_LABELS.get(type as never);
  return key ? t(key, {}, language) : type;
}
