import { join } from 'node:path';
import { LoomError } from '../errors';
import { writeFileAtomic } from '../fs/atomicWrite';
import { readOptionalText } from '../fs/readOptional';
import { sha256OfFile } from '../fs/sha256';
import type { SpecPipeline } from '../repository/specPipeline';
import { handoffRework } from '../specdir/handoffRefresh';
import type { Draft } from './draftBlocks';
import { mayWrite, type AuthoringCommand } from './stageCommands';
import { t as say } from '../messages';

/** What a file held when the draft was made: its sha256, or null when it did not exist. */
export type DraftBase = Readonly<Record<string, string | null>>;

export function draftBase(dir: string, drafts: readonly Draft[]): DraftBase {
  return Object.fromEntries(drafts.map((d) => [d.path, sha256OfFile(join(dir, d.path)) ?? null]));
}

/** How a draft differs from the file on disk, for the preview. */
export interface DraftChange {
  path: string;
  kind: 'new' | 'changed' | 'unchanged';
  added: number;
  removed: number;
}

/** Added and removed line counts by a longest-common-subsequence over lines (files are small). */
function lineDelta(before: string, after: string): { added: number; removed: number } {
  const a = before.split('\n');
  const b = after.split('\n');
  if (a.length * b.length > 4_000_000) return { added: b.length, removed: a.length };
  let prev = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const row = new Array<number>(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j++) row[j] = a[i - 1] === b[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], row[j - 1]);
    prev = row;
  }
  const common = prev[b.length];
  return { added: b.length - common, removed: a.length - common };
}

export function describeChanges(dir: string, drafts: readonly Draft[]): DraftChange[] {
  return drafts.map((d) => {
    const before = readOptionalText(join(dir, d.path));
    if (before === undefined) return { path: d.path, kind: 'new', added: d.content.split('\n').length - (d.content.endsWith('\n') ? 1 : 0), removed: 0 };
    if (before === d.content) return { path: d.path, kind: 'unchanged', added: 0, removed: 0 };
    return { path: d.path, kind: 'changed', ...lineDelta(before, d.content) };
  });
}

export interface WrittenDrafts {
  /** Spec-relative files written (unchanged drafts are skipped). */
  written: string[];
  /** The stage handoff, spec-relative; none for a command that writes no handoff (/refine). */
  handoff?: string;
  /** Earlier handoffs whose fingerprints were taken again because these drafts reworked their files. */
  refreshed?: string[];
}

/**
 * Writes the drafts the user accepted, each atomically, as one change of the spec (under its run
 * lock, the spec read once after it and the views told once: SpecPipeline.change), then the
 * stage's handoff (status, summary, artifacts, and the fingerprints loom's writeHandoff records),
 * an intent to the spec's actor. The handoffs of earlier stages this rework left stale only
 * through the files written here get their fingerprints taken again, as `loom handoff write`
 * would (handoffRework). A file changed on disk since the draft was made is never
 * overwritten: nothing is written and the error names it.
 */
export function writeDrafts(spec: SpecPipeline, command: AuthoringCommand, drafts: readonly Draft[], base: DraftBase, summary: string, now: string): WrittenDrafts {
  const { dir, specDir } = spec.snapshot;
  return spec.change((current) => {
    for (const d of drafts) {
      if (!mayWrite(command, d.path)) throw new LoomError(say('draft.writeNotAllowed', { path: `${specDir}/${d.path}`, command: command.name }), `${specDir}/${d.path}`);
      if (Object.hasOwn(base, d.path) && base[d.path] !== (sha256OfFile(join(dir, d.path)) ?? null)) {
        throw new LoomError(say('draft.changedSince', { path: `${specDir}/${d.path}`, command: command.name }), `${specDir}/${d.path}`);
      }
    }
    const rework = handoffRework(spec, current);
    const written: string[] = [];
    for (const d of drafts) {
      const path = join(dir, d.path);
      if (readOptionalText(path) === d.content) continue;
      writeFileAtomic(path, d.content);
      written.push(d.path);
    }
    const refreshed = rework(written);
    const also = refreshed.length ? { refreshed } : {};
    if (command.handoff === false) return { written, ...also };
    // The stage's handoff, through the spec's actor as every handoff is written.
    const answer = spec.requestNow(
      {
        type: 'writeHandoff',
        handoff: {
          stage: command.stage,
          status: 'done',
          summary: summary.trim() || `@loom /${command.name} wrote ${drafts.map((d) => d.path).join(', ')}`,
          artifacts: drafts.map((d) => d.path),
          writtenBy: `loom-vscode @loom /${command.name}`,
        },
      },
      { now },
    );
    if (answer.kind !== 'changed') throw new LoomError(answer.kind === 'refused' ? answer.message : answer.question.title, `${specDir}/handoffs/${command.stage}.json`);
    return { written, handoff: answer.file, ...also };
  });
}

/** Every file a write touched, the handoffs last (the refreshed ones, then the stage's), for the messages that list them. */
export const filesWritten = (r: WrittenDrafts): string[] => [...r.written, ...(r.refreshed ?? []).filter((h) => h !== r.handoff), ...(r.handoff ? [r.handoff] : [])];
