import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { locateJson, type JsonPath } from '../diagnostics/jsonLocator';
import { positionAt } from '../diagnostics/textPosition';
import type { Finding } from '../files/findings';
import type { FileCondition, SpecSnapshot } from '../specdir/specSnapshot';
import { addTraceRequirement, addTraceTasks, type FindingFix, type TraceabilityFix } from './findingFix';
import { findingsResult, type ValidatorResult } from './validatorResult';
import { t } from '../messages';
import { readTextOnce } from '../fs/requestReads';

/**
 * What the finding-producing validators share: numbering findings as loom does (`F-1`, `F-2` …,
 * with a prefix per validator), and pointing each at the spec-relative file and 1-based line it
 * concerns, so the host can show it in the Problems panel. A file that cannot be read simply
 * gives no line.
 */
export class FindingList {
  readonly findings: Finding[] = [];
  /** The machine-applicable fix of a finding, by finding id, where one is known. */
  readonly fixes = new Map<string, FindingFix>();
  /** Findings about work still under way (see ValidatorResult.inProgress). */
  readonly inProgress = new Set<string>();
  constructor(private readonly prefix: string) {}

  add(finding: Omit<Finding, 'id'>, fix?: FindingFix, options: { inProgress?: boolean } = {}): Finding {
    const f = { id: `${this.prefix}-${this.findings.length + 1}`, ...finding } as Finding;
    this.findings.push(f);
    if (fix) this.fixes.set(f.id, fix);
    if (options.inProgress) this.inProgress.add(f.id);
    return f;
  }
}

/** A validator's result from its findings: it fails on any blocker or error, and carries their fixes. */
export const listResult = (name: string, list: FindingList): ValidatorResult => ({
  ...findingsResult(name, list.findings),
  fixes: list.fixes,
  ...(list.inProgress.size ? { inProgress: list.inProgress } : {}),
});

export const isBlocking = (f: Pick<Finding, 'severity'>) => f.severity === 'blocker' || f.severity === 'error';

/** `"92%"`, as loom writes coverage figures; nothing to cover is full coverage. */
export const percent = (part: number, total: number) => (total === 0 ? '100%' : `${Math.round((part / total) * 100)}%`);

/** Reads spec files once and answers "which line". */
export class SpecLines {
  private readonly texts = new Map<string, string | undefined>();
  private readonly located = new Map<string, ReturnType<typeof locateJson> | undefined>();

  /** `locate: false` answers no JSON line (see ValidatorOptions): the files are not parsed again. */
  constructor(
    private readonly snapshot: Pick<SpecSnapshot, 'dir' | 'requirements' | 'traceability'>,
    private readonly locate = true,
  ) {}

  text(file: string): string | undefined {
    if (!this.texts.has(file)) {
      let text: string | undefined;
      try {
        // Within a request, the bytes the snapshot and the other guards read (one read per file).
        text = readTextOnce(join(this.snapshot.dir, file));
      } catch {
        text = undefined;
      }
      this.texts.set(file, text);
    }
    return this.texts.get(file);
  }

  /** The first line holding `needle` (a word match for ids), or undefined. */
  lineOf(file: string, needle: string | RegExp): number | undefined {
    const text = this.text(file);
    if (text === undefined) return undefined;
    const pattern = typeof needle === 'string' ? new RegExp(`(?<![\\w-])${needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`) : needle;
    const lines = text.split('\n');
    const i = lines.findIndex((l) => pattern.test(l));
    return i < 0 ? undefined : i + 1;
  }

  jsonLine(file: string, path: JsonPath): number | undefined {
    if (!this.locate) return undefined;
    const text = this.text(file);
    if (text === undefined) return undefined;
    if (!this.located.has(file)) this.located.set(file, locateJson(text));
    const located = this.located.get(file);
    return located ? positionAt(text, located.offsetOf(path)).line : undefined;
  }

  /** Where a requirement (or one of its behaviors) is declared in requirements.json, in either form. */
  requirementLine(requirementId: string, behaviorId?: string): number | undefined {
    const ledger = this.snapshot.requirements;
    if (!ledger) return undefined;
    const index = ledger.requirements.findIndex((r) => r.id === requirementId);
    if (index < 0) return undefined;
    // The line of the `id` key (an array item), or of the key that is the id (the object form).
    const base: (string | number)[] = ['requirements', ledger.form === 'array' ? index : requirementId];
    const own = ledger.form === 'array' ? [...base, 'id'] : base;
    if (behaviorId === undefined) return this.jsonLine('requirements.json', own);
    const b = ledger.requirements[index].behaviors.findIndex((x) => x.id === behaviorId);
    return this.jsonLine('requirements.json', b < 0 ? own : [...base, 'behaviors', b, 'id']);
  }

  /** Where traceability.json traces a requirement (or a behavior under it), in either form. */
  traceLine(requirementId: string, behaviorId?: string): number | undefined {
    const ledger = this.snapshot.traceability;
    if (!ledger) return undefined;
    const index = ledger.requirements.findIndex((r) => r.id === requirementId);
    if (index < 0) return this.jsonLine('traceability.json', ['requirements']);
    const base: (string | number)[] = ['requirements', ledger.form === 'array' ? index : requirementId];
    if (behaviorId === undefined) return this.jsonLine('traceability.json', ledger.form === 'array' ? [...base, 'id'] : base);
    return this.jsonLine('traceability.json', [...base, 'behaviors', behaviorId]);
  }

  /** A `{file, line}` location, leaving out a line that could not be found. */
  at(file: string, line: number | undefined): NonNullable<Finding['location']> {
    return line === undefined ? { file } : { file, line };
  }
}

/**
 * The finding for a file a validator needs that is missing or does not read. A corrupt file's
 * finding sits on the line of the first error the spec reports for it (the JSON syntax error, the
 * key that does not match the schema), beside the problem it refers to; a missing one has no line.
 * Undefined when the file read.
 */
export function unreadableFile(s: Pick<SpecSnapshot, 'specDir' | 'diagnostics'>, file: string, condition: FileCondition, severity: Finding['severity'] = 'error'): Omit<Finding, 'id'> | undefined {
  if (condition === 'ok') return undefined;
  if (condition === 'missing') return { kind: 'missing', severity, artifact: file, message: t('validator.fileMissing', { file }), location: { file } };
  const first = s.diagnostics.find((d) => d.file === `${s.specDir}/${file}` && d.severity === 'error');
  return { kind: 'format', severity, artifact: file, message: t('validator.fileUnreadable', { file }), location: first ? { file, line: first.line } : { file } };
}

/** The tasks whose frontmatter names a requirement: in their `requirements`, or one of its behaviors in their `behavior_ids`. */
export const tasksNamingRequirement = (s: Pick<SpecSnapshot, 'tasks'>, id: string): string[] =>
  [...s.tasks.values()].filter((t) => t.requirements.includes(id) || t.behavior_ids.some((b) => b.startsWith(`${id}-`))).map((t) => t.id);

/** The tasks whose `behavior_ids` name a behavior. */
export const tasksNamingBehavior = (s: Pick<SpecSnapshot, 'tasks'>, id: string): string[] => [...s.tasks.values()].filter((t) => t.behavior_ids.includes(id)).map((t) => t.id);

/**
 * The fix that adds a requirement traceability.json lacks: traced to the tasks that name it, with
 * each of its behaviors traced to the tasks that name that behavior (not-applicable ones too, as
 * loom's validateTraceabilityFile asks).
 */
export function traceRequirementFix(s: Pick<SpecSnapshot, 'tasks' | 'requirements'>, id: string): TraceabilityFix {
  const behaviors = s.requirements?.requirements.find((r) => r.id === id)?.behaviors ?? [];
  return addTraceRequirement(
    id,
    tasksNamingRequirement(s, id),
    [...new Set(behaviors.map((b) => b.id))].map((b) => ({ id: b, tasks: tasksNamingBehavior(s, b) })),
  );
}

/** The fix that traces a requirement, or `behavior` under it, to the tasks that name it; undefined when no task does. */
export function traceTasksFix(s: Pick<SpecSnapshot, 'tasks'>, requirement: string, behavior?: string): TraceabilityFix | undefined {
  const tasks = behavior === undefined ? tasksNamingRequirement(s, requirement) : tasksNamingBehavior(s, behavior);
  return tasks.length ? addTraceTasks(requirement, behavior, tasks) : undefined;
}

/** JSON with object keys sorted at every level, so that two reports compare by content. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/**
 * The report already on disk at `path`, when it says the same as `report` apart from its
 * created_at: rewriting it would only change its fingerprint. Undefined when it differs, is
 * missing or does not parse.
 */
export function sameApartFromTime<T extends { created_at: string }>(path: string, report: T): T | undefined {
  let existing: unknown;
  try {
    existing = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
  if (!existing || typeof existing !== 'object') return undefined;
  const { created_at: before, ...old } = existing as Record<string, unknown>;
  const { created_at: _now, ...fresh } = report;
  if (JSON.stringify(canonical(old)) !== JSON.stringify(canonical(fresh))) return undefined;
  return { ...report, created_at: typeof before === 'string' ? before : report.created_at };
}
