import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { findPlaceholder } from '../files/placeholders';
import { WORKFLOW_FILE } from '../files/workflow';
import { writeFileAtomic } from '../fs/atomicWrite';
import { readOptionalText } from '../fs/readOptional';
import { nextTransitions } from '../pipeline/transitionCheck';
import { LoomRepository } from '../repository/loomRepository';
import { handoffRework } from '../specdir/handoffRefresh';
import type { SpecPipeline } from '../repository/specPipeline';
import { specDiagnostics } from '../repository/specDiagnostics';
import { analyzeArtifacts } from '../validators/artifactAnalysis';
import { detailExpansionPass } from '../validators/detailExpansion';
import { planningArtifacts, planOverviewFindings } from '../validators/planningArtifacts';
import { SpecLines } from '../validators/findingSupport';
import { requirementIdsInSpec } from '../validators/requirementTaskClosure';
import type { Draft } from './draftBlocks';
import { mayWrite, type AuthoringCommand } from './stageCommands';
import { t as say } from '../messages';

/**
 * Whether drafts would pass loom's checks, decided before anything is written: the spec
 * directory is copied into a scratch repository (with the workflow), the drafts are written
 * there, and the same core that guards Advance reads it. The problems are sentences for the
 * model (to correct) and for the user (when it could not).
 */
export function checkDrafts(repoRoot: string, specDir: string, command: AuthoringCommand, drafts: readonly Draft[]): string[] {
  const problems: string[] = [];
  const usable: Draft[] = [];
  for (const d of drafts) {
    const refused = refusedDraft(command, d.path);
    if (refused !== undefined) problems.push(refused);
    else if (!d.complete) problems.push(say('draft.cutOff', { path: d.path }));
    else usable.push(d);
  }
  if (!usable.length) return problems.length ? problems : [say('draft.noFile', { files: command.writesText })];

  const scratch = mkdtempSync(join(tmpdir(), 'loom-draft-'));
  try {
    const spec = scratchSpec(repoRoot, specDir, usable, scratch);
    if (!spec) return [...problems, say('draft.notASpec', { specDir })];
    problems.push(...fileProblems(spec, usable), ...exitProblems(spec, command), ...commandProblems(spec, command, usable));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return [...new Set(problems)];
}

/** Why the command may not write the file, or undefined when it may (a stage's own outputs only). */
export function refusedDraft(command: AuthoringCommand, path: string): string | undefined {
  return mayWrite(command, path) ? undefined : say('draft.notWritable', { path, command: command.name, files: command.writesText });
}

function scratchSpec(repoRoot: string, specDir: string, drafts: readonly Draft[], scratch: string): SpecPipeline | undefined {
  const workflow = join(repoRoot, WORKFLOW_FILE);
  if (existsSync(workflow)) cpSync(workflow, join(scratch, WORKFLOW_FILE));
  const target = join(scratch, specDir);
  mkdirSync(target, { recursive: true });
  cpSync(join(repoRoot, specDir), target, { recursive: true, filter: (src) => basename(src) !== '.loom-run.lock' });
  // As writeDrafts writes them: the earlier handoffs the drafts rework are taken again, by the
  // scratch spec's own actor.
  const repo = new LoomRepository(scratch).load();
  const before = repo.get(specDir);
  if (!before) return undefined;
  // One change of the scratch spec: it reads the drafts back itself.
  before.change((current) => {
    const rework = handoffRework(before, current);
    for (const d of drafts) writeFileAtomic(join(target, d.path), d.content);
    rework(drafts.map((d) => d.path));
  });
  return before;
}

/** Errors the core reports in the drafted files themselves (JSON syntax, schema, frontmatter). */
function fileProblems(spec: SpecPipeline, drafts: readonly Draft[]): string[] {
  const drafted = new Set(drafts.map((d) => `${spec.snapshot.specDir}/${d.path}`));
  return specDiagnostics(spec)
    .filter((d) => d.severity === 'error' && drafted.has(d.file))
    .map((d) => `${d.file.slice(spec.snapshot.specDir.length + 1)}:${d.line}: ${d.message}`);
}

/**
 * The unmet exit preconditions of the command's stage that concern a file the command writes
 * (others, such as a missing worktree, are not the model's to fix). Confirmation is the user's.
 */
function exitProblems(spec: SpecPipeline, command: AuthoringCommand): string[] {
  const forward = nextTransitions(spec.definition, command.stage, spec.verdicts).filter((t) => t.kind === 'forward');
  // A stale approval is the user's to renew (loom 3: rewriting requirements.json at detail-expansion
  // makes brainstorming's approval stale by design), never a fault of the drafts to repair.
  const stale = new Set(forward.flatMap((t) => t.verdicts.filter((v) => v.outcome.code === 'stale-approval').flatMap((v) => v.outcome.reasons)));
  return forward
    .flatMap((t) => t.unmet)
    .filter((m) => !stale.has(m))
    .filter((m) => command.outputs.some((n) => m.includes(n)));
}

/** The checks each stage's own validator makes, run whether or not the workflow declares them. */
function commandProblems(spec: SpecPipeline, command: AuthoringCommand, drafts: readonly Draft[]): string[] {
  const s = spec.snapshot;
  const out: string[] = [];
  for (const d of drafts.filter((x) => x.path.endsWith('.md'))) {
    const p = findPlaceholder(d.content);
    if (p) out.push(say('draft.placeholder', { path: d.path, line: p.line, placeholder: p.placeholder }));
  }
  switch (command.name) {
    case 'brainstorm':
    case 'expand': {
      const ids = s.requirements?.requirements.map((r) => r.id) ?? [];
      const specText = drafts.find((d) => d.path === 'spec.md')?.content ?? readOptionalText(join(s.dir, 'spec.md'));
      if (specText !== undefined && s.requirements) {
        const named = requirementIdsInSpec(specText);
        for (const id of named.filter((x) => !ids.includes(x))) out.push(say('draft.specNamesUndeclared', { id }));
        for (const id of ids.filter((x) => !named.includes(x))) out.push(say('draft.requirementNotNamed', { id }));
      }
      if (s.requirements && !ids.length) out.push(say('draft.noRequirement'));
      for (const r of s.requirements?.requirements ?? []) if (!r.behaviors.length) out.push(say('draft.noBehavior', { id: r.id }));
      if (command.name === 'expand') out.push(...detailExpansionPass(s).problems);
      break;
    }
    case 'plan': {
      out.push(...planningArtifacts(s).problems);
      // What loom's validate-plan.mjs refuses is sent back too: a task overview linking only some task files.
      out.push(...planOverviewFindings(s, new SpecLines(s), 'error').map((f) => f.message));
      const analysis = analyzeArtifacts(s);
      for (const f of analysis.findings) if (f.severity === 'blocker' || f.severity === 'error') out.push(f.message);
      break;
    }
    case 'review':
    case 'respond':
      for (const d of drafts) if (!d.content.trim()) out.push(say('draft.empty', { path: d.path }));
      break;
  }
  return out;
}
