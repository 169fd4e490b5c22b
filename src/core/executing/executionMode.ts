import { normalizeOwnedPath } from '../fs/paths';
import { isTestPath } from './tools/testFiles';

/**
 * Subagent mode or a single direct session, after loom's triggers. Subagent mode costs about
 * 4-15x the tokens, so it is used only when one trigger holds.
 */
export type ExecutionMode = 'subagent' | 'direct';

/** `loom.executing.mode`: loom's triggers decide (`auto`), or the user's choice holds. */
export type ExecutionModeSetting = 'auto' | 'subagent' | 'direct';

export type ModeTrigger =
  { kind: 'task-count'; count: number } | { kind: 'source-files'; count: number } | { kind: 'modules'; modules: string[] } | { kind: 'risk'; risk: Risk; source: string } | { kind: 'user-request' };

export type Risk = 'security' | 'data-consistency' | 'migration' | 'permission';

export interface ModeTask {
  id: string;
  owns: readonly string[];
  /** Frontmatter keys beyond loom's own: `risk`, `risks`, `risk_flags`, `tags` are read for risks. */
  [key: string]: unknown;
}

export interface ModeRequirement {
  id: string;
  types?: readonly string[];
  behaviors: readonly { category: string }[];
  [key: string]: unknown;
}

export interface ModeInputs {
  tasks: readonly ModeTask[];
  requirements: readonly ModeRequirement[];
  /** pipeline.state.json metadata: `risk` / `risks` flag the whole spec. */
  specMetadata?: Record<string, unknown>;
  userRequestedSubagents?: boolean;
  /** `direct` keeps one session although triggers hold; `subagent` is the same as userRequestedSubagents. */
  setting?: ExecutionModeSetting;
  /** Files under an owned folder (repository-relative), when it can be listed; a folder counts as one file otherwise. */
  filesUnder?: (folder: string) => readonly string[] | undefined;
}

export interface ExecutionModeChoice {
  mode: ExecutionMode;
  triggers: ModeTrigger[];
  /** The setting asked for direct mode over the triggers, which are still listed. */
  overridden?: true;
}

export const TASK_COUNT_TRIGGER = 3;
export const SOURCE_FILE_TRIGGER = 5;

const RISK_WORDS: ReadonlyArray<[RegExp, Risk]> = [
  [/secur|安全|auth(?!or)|credential|secret/i, 'security'],
  [/data[-_ ]?consisten|consistency|一致性|transaction/i, 'data-consistency'],
  [/migrat|迁移|schema[-_ ]change/i, 'migration'],
  [/permission|authori[sz]|access[-_ ]control|权限/i, 'permission'],
];
const RISK_KEYS = ['risk', 'risks', 'risk_flags', 'tags', 'flags'];

function risksIn(value: unknown): Risk[] {
  const words = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
  const out: Risk[] = [];
  for (const w of words) for (const [re, risk] of RISK_WORDS) if (re.test(w) && !out.includes(risk)) out.push(risk);
  return out;
}

function flaggedRisks(record: Record<string, unknown>): Risk[] {
  const out: Risk[] = [];
  for (const key of RISK_KEYS) {
    if (!Object.hasOwn(record, key)) continue;
    for (const r of risksIn(record[key])) if (!out.includes(r)) out.push(r);
  }
  return out;
}

const CONTAINERS = new Set(['src', 'lib', 'app', 'apps', 'packages', 'modules', 'internal', 'pkg', 'cmd', 'services', 'components']);

/** `src/auth/x.ts` → `src/auth`; `server/x.go` → `server`; `main.go` → `.` (the root). */
export function moduleOf(path: string): string {
  const s = normalizeOwnedPath(path).split('/').filter(Boolean);
  if (s.length >= 3 && CONTAINERS.has(s[0])) return `${s[0]}/${s[1]}`;
  if (s.length >= 2) return s[0];
  return '.';
}

/** Folders (`src/a/` or a name without an extension) expand to the files they hold, when known. */
function sourceFiles(inputs: ModeInputs): Set<string> {
  const files = new Set<string>();
  for (const t of inputs.tasks) {
    for (const raw of t.owns) {
      const p = normalizeOwnedPath(raw);
      if (!p || isTestPath(p)) continue;
      const looksLikeFolder = raw.trim().endsWith('/') || !/\.[^/]+$/.test(p);
      const under = looksLikeFolder ? inputs.filesUnder?.(p)?.filter((f) => !isTestPath(f)) : undefined;
      if (under && under.length > 0) for (const f of under) files.add(normalizeOwnedPath(f));
      else files.add(p);
    }
  }
  return files;
}

export function chooseExecutionMode(inputs: ModeInputs): ExecutionModeChoice {
  const triggers: ModeTrigger[] = [];
  if (inputs.userRequestedSubagents || inputs.setting === 'subagent') triggers.push({ kind: 'user-request' });
  if (inputs.tasks.length >= TASK_COUNT_TRIGGER) triggers.push({ kind: 'task-count', count: inputs.tasks.length });
  const files = sourceFiles(inputs);
  if (files.size >= SOURCE_FILE_TRIGGER) triggers.push({ kind: 'source-files', count: files.size });
  const modules = [...new Set([...files].map(moduleOf))].sort();
  if (modules.length >= 2) triggers.push({ kind: 'modules', modules });

  const seen = new Set<Risk>();
  const risk = (r: Risk, source: string) => {
    if (seen.has(r)) return;
    seen.add(r);
    triggers.push({ kind: 'risk', risk: r, source });
  };
  for (const r of flaggedRisks(inputs.specMetadata ?? {})) risk(r, 'spec');
  for (const t of inputs.tasks) for (const r of flaggedRisks(t)) risk(r, t.id);
  for (const req of inputs.requirements) {
    for (const r of [...risksIn(req.types ?? []), ...flaggedRisks(req)]) risk(r, req.id);
    for (const b of req.behaviors) {
      if (b.category === 'security') risk('security', req.id);
      if (b.category === 'authorization') risk('permission', req.id);
    }
  }
  if (inputs.setting === 'direct') return triggers.length > 0 ? { mode: 'direct', triggers, overridden: true } : { mode: 'direct', triggers };
  return { mode: triggers.length > 0 ? 'subagent' : 'direct', triggers };
}

/** One line for the user: which mode and why. */
export function describeExecutionMode(choice: ExecutionModeChoice): string {
  if (choice.mode === 'direct' && choice.overridden) return `direct session: loom.executing.mode is direct, although ${choice.triggers.map(describeTrigger).join('; ')}`;
  if (choice.mode === 'direct') return 'direct session: no subagent trigger holds (fewer than 3 tasks, fewer than 5 source files, one module, no flagged risk)';
  return `subagent mode: ${choice.triggers.map(describeTrigger).join('; ')}`;
}

export function describeTrigger(t: ModeTrigger): string {
  switch (t.kind) {
    case 'task-count':
      return `${t.count} task files (3 or more)`;
    case 'source-files':
      return `${t.count} source files in the tasks' owns (5 or more)`;
    case 'modules':
      return `owns spans ${t.modules.length} modules (${t.modules.join(', ')})`;
    case 'risk':
      return `${t.risk} risk flagged by ${t.source}`;
    case 'user-request':
      return 'you asked for subagents';
  }
}
