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
/** The artifacts loom's index-update skill reads the feature's conclusions from, in that order. */
const SOURCES = ['spec.md', 'plan.md', 'review-response.md', 'progress.md'];
/** An entry says one thing: a longer item is cut where loom's memory view would wrap it away. */
const MAX_CONTENT = 400;

interface Item {
  kind: 'decision' | 'pitfall';
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
      kind = DECISION_HEADING.test(heading[2]) ? 'decision' : PITFALL_HEADING.test(heading[2]) ? 'pitfall' : undefined;
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
    for (const item of itemsOf(file, text)) {
      const content = clean(item.text);
      if (content) entries.push({ type: item.kind === 'decision' ? '决策' : '踩坑', content: `${feature}: ${content}`, tags, context: `${context}/${item.file}` });
    }
  }
  for (const [id, state] of [...snapshot.taskStates].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))) {
    const retries = state.retry_count ?? 0;
    if (retries === 0 && !state.blocker) continue;
    // A task file's heading is `# T1: Greet by name`: the id is said once.
    const title = (snapshot.tasks.get(id)?.title ?? id).replace(/^T\d+[a-z]?\s*[:：]\s*/i, '') || id;
    const content = t('memory.sync.taskPitfall', { feature, task: id, title, retries, blocker: state.blocker ?? '-' }, language);
    entries.push({ type: '踩坑', content: clean(content), tags, context: `${context}/task-states/${id}.state.json` });
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
