import type { Draft } from '../authoring/draftBlocks';
import { checkDrafts } from '../authoring/draftCheck';
import { AUTHORING, mayWrite, type AuthoringCommand } from '../authoring/stageCommands';
import { findPlaceholder } from '../files/placeholders';

const exact = (path: string) => new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

/**
 * `/refine` as a drafting command: it may write exactly the files the threads are on, and writes
 * no stage handoff (the stages that made these files were handed off already).
 */
export function refineCommand(files: readonly string[], stage: string): AuthoringCommand<'refine'> {
  return { name: 'refine', stage, writes: files.map(exact), writesText: files.join(', '), outputs: [...files], reads: [...files], handoff: false };
}

/**
 * The refined files checked as each one's stage checks its drafts: spec.md as /brainstorm's,
 * plan.md and task files as /plan's, and so on. A file no stage drafts (a report) is checked for
 * what every draft is: complete, not empty, no placeholder left in.
 */
export function checkRefinedDrafts(repoRoot: string, specDir: string, command: AuthoringCommand<'refine'>, drafts: readonly Draft[]): string[] {
  const problems: string[] = [];
  const allowed: Draft[] = [];
  for (const d of drafts) {
    if (!mayWrite(command, d.path)) problems.push(`${d.path} is not a file /refine may write (only ${command.writesText}, the files the open threads are on)`);
    else allowed.push(d);
  }
  const left = new Set(allowed);
  for (const stageCommand of Object.values(AUTHORING)) {
    const group = allowed.filter((d) => left.has(d) && mayWrite(stageCommand, d.path));
    if (!group.length) continue;
    for (const d of group) left.delete(d);
    problems.push(...checkDrafts(repoRoot, specDir, stageCommand, group));
  }
  for (const d of left) {
    if (!d.complete) problems.push(`${d.path} was cut off: its block has no "=== END FILE ===" line`);
    else if (!d.content.trim()) problems.push(`${d.path} is empty`);
    const p = d.path.endsWith('.md') ? findPlaceholder(d.content) : undefined;
    if (p) problems.push(`${d.path}:${p.line}: placeholder "${p.placeholder}" left in`);
  }
  return [...new Set(problems)];
}
