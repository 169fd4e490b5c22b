import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { specTemplate } from '../authoring/specTemplate';
import type { PromptLanguage } from '../executing/dispatch/prompts/promptTemplates';
import { LoomError } from '../errors';
import { writeFileAtomic } from '../fs/atomicWrite';
import { loadSpec } from '../specdir/loadSpec';
import type { PipelineDefinition } from '../pipeline/pipelineDefinition';
import { LoomRepository } from './loomRepository';
import { SpecPipeline } from './specPipeline';

/** The longest slug kept, in characters: spec names end up in branch names and paths. */
const MAX_SLUG = 60;

/**
 * The feature part of a spec directory name: `User Login!` → `user-login`, `用户 登录` → `用户-登录`.
 * Letters and digits of any script are kept (loom's users name features in Chinese); everything
 * else, including `+`, `/`, `.` and whitespace, becomes a single `-`.
 */
export function specSlug(name: string): string {
  const slug = name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}_-]+/gu, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '');
  return [...slug]
    .slice(0, MAX_SLUG)
    .join('')
    .replace(/[-_]+$/, '');
}

/** `YYYY-MM-DD` of `now` in local time: the date the user sees on their calendar. */
export function specDate(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export interface CreateSpecOptions {
  /** Folder under the repository root that holds specs (default `specs`). */
  specRoot?: string;
  /** Default `feature`. */
  pipelineType?: string;
  /** The pipeline's first stage (default `brainstorming`). */
  stage?: string;
  /** The language of the spec.md template (default `en`). */
  language?: PromptLanguage;
  /** The pipeline of `pipelineType`, when the caller has it; read from the repository otherwise. */
  definition?: PipelineDefinition;
}

export interface CreatedSpec {
  /** Absolute path of the new spec directory. */
  dir: string;
  /** Repository-relative, e.g. `specs/2026-11-29+login`. */
  specDir: string;
}

/**
 * Starts a feature the way loom does: `specs/<YYYY-MM-DD>+<slug>/` with a pipeline.state.json at
 * the first stage and the progress.md generated from it, plus a spec.md template in the user's
 * language to draft into. Refuses an empty name and an existing directory; writes atomically.
 */
export function createSpec(repoRoot: string, name: string, now: Date, options: CreateSpecOptions = {}): CreatedSpec {
  const slug = specSlug(name);
  if (!slug) throw new LoomError(`"${name}" has no letters or digits to name a spec directory with`);
  const root = options.specRoot ?? 'specs';
  const dirName = `${specDate(now)}+${slug}`;
  const specDir = `${root}/${dirName}`;
  const dir = join(repoRoot, root, dirName);
  mkdirSync(join(repoRoot, root), { recursive: true });
  try {
    // Not recursive: creating the directory itself is the check that no one else has it.
    mkdirSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw new LoomError(`${specDir} already exists`, specDir);
    throw e;
  }
  const iso = now.toISOString();
  const pipelineType = options.pipelineType ?? 'feature';
  // The directory was just made by us, so no one else writes here yet.
  writeFileAtomic(join(dir, 'spec.md'), specTemplate(name, dirName, pipelineType, options.language ?? 'en'));
  // The first state is the new spec's actor's effect, as every state after it (loom's init writes
  // loom_version from the repository's package.json and spec_dir absolute).
  const definition = options.definition ?? new LoomRepository(repoRoot).definition(pipelineType);
  const spec = new SpecPipeline(loadSpec(repoRoot, dir), definition);
  try {
    const answer = spec.requestNow({ type: 'initState', stage: options.stage ?? 'brainstorming' }, { now: iso });
    if (answer.kind !== 'changed') throw new LoomError(answer.kind === 'refused' ? answer.message : `${specDir}: the first state was not written`, specDir);
  } finally {
    spec.dispose();
  }
  return { dir, specDir };
}
