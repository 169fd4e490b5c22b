import { join } from 'node:path';
import type { Draft } from '../authoring/draftBlocks';
import { checkDrafts } from '../authoring/draftCheck';
import { writeDrafts, type DraftBase, type WrittenDrafts } from '../authoring/draftWrite';
import type { AuthoringCommand } from '../authoring/stageCommands';
import { renderSpecFiles } from '../authoring/authoringPrompts';
import type { ChatMessage } from '../executing/dispatch/chatModel';
import type { PromptLanguage } from '../executing/dispatch/prompts/promptTemplates';
import { clip } from '../executing/dispatch/specSections';
import { LoomError } from '../errors';
import { gitOutput } from '../git/gitCommand';
import { t } from '../messages';
import type { SpecPipeline } from '../repository/specPipeline';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { headCommitOf, type RecordedBaseline } from './baseline';
import type { SpecDrift } from './driftScan';
import { shortCommit } from './driftText';

const exact = (path: string) => new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

/**
 * `@loom /reconcile` as a drafting command: the spec's own files, amended to what its code does
 * now; no stage handoff (the spec stays at the stage that syncs), and review-comments.json is not
 * among them, so its threads, resolved ones too, are kept as they are.
 */
export function reconcileCommand(syncStage: string): AuthoringCommand<'reconcile'> {
  return {
    name: 'reconcile',
    stage: syncStage,
    writes: [exact('spec.md'), exact('requirements.json'), exact('plan.md'), /^tasks\/T[1-9]\d*\.md$/, exact('traceability.json')],
    writesText: 'spec.md, requirements.json, plan.md, tasks/TN.md, traceability.json',
    outputs: ['spec.md', 'requirements.json', 'plan.md', 'tasks/', 'traceability.json'],
    reads: ['spec.md', 'requirements.json', 'plan.md', 'tasks/', 'traceability.json'],
    handoff: false,
  };
}

/** A diff past this is cut: the prompt says so, and the model works from the files it names. */
const MAX_PROMPT_DIFF = 60_000;

/**
 * What the code did since the spec's baseline, for the model: `git diff` of the files the spec
 * speaks for, from the baseline to the working tree (renamed files under both names, so git pairs
 * them), with the commits' subjects first.
 */
export async function driftDiff(repoRoot: string, drift: SpecDrift, signal?: AbortSignal): Promise<string> {
  if (drift.status !== 'drifted' || !drift.baseline) return '';
  const paths = [...new Set(drift.files.flatMap((f) => (f.renamedTo ? [f.path, f.renamedTo] : [f.path])))];
  const r = await gitOutput(repoRoot, ['diff', '-M', '--no-color', '--no-ext-diff', drift.baseline.commit, '--', ...paths], { signal });
  const commits = drift.commits.map((c) => `${shortCommit(c.commit)} ${c.subject} (${c.author}): ${c.files.join(', ')}`).join('\n');
  return `${commits}\n\n${r.code === 0 ? r.stdout : `(git diff failed: ${r.stderr.trim().split('\n')[0]})`}`;
}

/** The turn's prompt: the rules, what changed since the baseline, the spec's files, what the person asked. */
export function buildReconcileMessages(c: { command: AuthoringCommand; dir: string; specDir: string; drift: SpecDrift; diff: string; request: string; language: PromptLanguage }): ChatMessage[] {
  const b = c.drift.baseline;
  const text = [
    t('reconcile.prompt.rules', {}, c.language),
    t('reconcile.prompt.format', { writes: c.command.writesText }, c.language),
    t('reconcile.prompt.feature', { specDir: c.specDir, baseline: b ? shortCommit(b.commit) : '?' }, c.language),
    `## ${t('reconcile.prompt.changed', {}, c.language)}\n${clip(c.diff, MAX_PROMPT_DIFF)}`,
    `## ${t('reconcile.prompt.specFiles', {}, c.language)}\n${renderSpecFiles(c.dir, c.command.reads, c.language)}`,
    `## ${t('reconcile.prompt.person', {}, c.language)}\n${c.request.trim() || t('reconcile.prompt.nothingMore', {}, c.language)}`,
  ].join('\n\n');
  return [{ role: 'user', content: text }];
}

interface Ids {
  requirements: string[];
  behaviors: Map<string, string | undefined>;
}

/** The requirement and behavior ids of a requirements.json text (either form loom reads); undefined when it does not parse. */
function idsOf(text: string): Ids | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  const list = (raw as { requirements?: unknown })?.requirements;
  const entries: [string, unknown][] = Array.isArray(list)
    ? list.map((r) => [String((r as { id?: unknown })?.id ?? ''), r])
    : list && typeof list === 'object'
      ? Object.entries(list as Record<string, unknown>)
      : [];
  const behaviors = new Map<string, string | undefined>();
  for (const [, r] of entries) {
    const bs = (r as { behaviors?: unknown })?.behaviors;
    if (!Array.isArray(bs)) continue;
    for (const b of bs) {
      const id = (b as { id?: unknown })?.id;
      const status = (b as { status?: unknown })?.status;
      if (typeof id === 'string') behaviors.set(id, typeof status === 'string' ? status : undefined);
    }
  }
  return { requirements: entries.map(([id]) => id), behaviors };
}

/**
 * What a reconcile may not do to the ledger: drop a requirement or a behavior. A behavior the code
 * no longer has stays, superseded (loom's status for it), so its history and its threads still
 * point somewhere.
 */
export function idsKeptProblems(before: string | undefined, drafts: readonly Draft[]): string[] {
  const draft = drafts.find((d) => d.path === 'requirements.json');
  if (!draft || before === undefined) return [];
  const was = idsOf(before);
  const now = idsOf(draft.content);
  if (!was || !now) return [];
  const out: string[] = [];
  for (const id of was.requirements) if (!now.requirements.includes(id)) out.push(t('reconcile.requirementDropped', { id }));
  for (const id of was.behaviors.keys()) if (!now.behaviors.has(id)) out.push(t('reconcile.behaviorDropped', { id }));
  return out;
}

/** The checks a reconcile's drafts pass: the same validators as every draft (checkDrafts), and the ids kept. */
export function checkReconcileDrafts(
  snapshot: Pick<SpecSnapshot, 'repoRoot' | 'specDir' | 'dir'>,
  command: AuthoringCommand,
  drafts: readonly Draft[],
  readText: (path: string) => string | undefined,
): string[] {
  return [...new Set([...checkDrafts(snapshot.repoRoot, snapshot.specDir, command, drafts), ...idsKeptProblems(readText(join(snapshot.dir, 'requirements.json')), drafts)])];
}

/**
 * Writes an accepted reconcile, as one change of the spec (SpecPipeline.change: under its run lock): the drafts (each
 * atomically; a file changed since the proposal is never overwritten), then the spec's actor
 * moves the drift baseline to HEAD (`reconciled`, by whom, with the model's summary as why).
 */
export async function writeReconcile(
  spec: SpecPipeline,
  command: AuthoringCommand,
  drafts: readonly Draft[],
  base: DraftBase,
  summary: string,
  by: string,
  now: string,
): Promise<WrittenDrafts & { baseline: RecordedBaseline }> {
  const head = await headCommitOf(spec.snapshot.repoRoot);
  // One change of the spec: the drafts and the move are read back once, and the views told once.
  return spec.change(() => {
    const written = writeDrafts(spec, command, drafts, base, summary, now);
    const answer = spec.requestNow(
      { type: 'moveBaseline', source: 'reconciled', by, reason: summary.trim() || `@loom /reconcile wrote ${written.written.join(', ')}` },
      { now, ...(head ? { codeCommit: head } : {}) },
    );
    if (answer.kind !== 'changed') throw new LoomError(answer.kind === 'refused' ? answer.message : answer.question.title, `${spec.snapshot.specDir}/pipeline.state.json`);
    return { ...written, baseline: answer.baseline };
  });
}
