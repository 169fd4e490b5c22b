import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { t } from '../messages';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic';
import { locateJson } from '../diagnostics/jsonLocator';
import { positionAt } from '../diagnostics/textPosition';
import { PIPELINE_STATE_FILE } from '../files/pipelineState';
import { FAILED_STAGE } from '../files/vocabulary';
import { specRelative } from '../fs/paths';
import type { PipelineDefinition } from '../pipeline/pipelineDefinition';
import { bundledPipelineSchema, type PipelineSchemaFile } from '../pipeline/pipelineSchema';
import { failedFrom } from '../pipeline/stateRecord';
import { changedFingerprints, isTraceabilityLedger } from './fingerprints';
import { staleHandoffs, type StaleHandoff } from './handoffStaleness';
import type { SpecSnapshot } from './specSnapshot';

/** An approval gate whose approved files changed after the approval. */
export interface StaleApproval {
  stage: string;
  approvedAt?: string;
  /** Index of the newest stale history entry of the stage (where its fingerprints are shown). */
  historyIndex: number;
  /** Every stale history entry of the stage, oldest first: re-approving the stage renews them all. */
  historyIndices: number[];
  /** Declared files whose sha256 no longer matches, or that are gone. */
  changed: string[];
}

/** A file a finished stage derived from an input that is newer than it. */
export interface StaleDerivation {
  stage: string;
  /** Spec-relative output of the stage. */
  output: string;
  /** Spec-relative file the stage reads, modified after `output`. */
  input: string;
}

export interface SpecStaleness {
  handoffs: StaleHandoff[];
  approvals: StaleApproval[];
  derived: StaleDerivation[];
}

/**
 * Approval gates record `approval_fingerprints` (declared path → sha256, a folder's digest
 * covering its tree) in the history entry of the approved stage. As loom 3's
 * `checkApprovalFreshness` does, every history entry that holds fingerprints is checked, however
 * old, and every path it recorded counts: a convergence round appending to plan.md, or
 * detail-expansion rewriting requirements.json a gate approved, makes that approval stale for
 * loom, so it does here. What is left out is decided when the approval is recorded
 * (approvalArtifacts.ts), never when it is checked. Stale entries of one stage are reported
 * together, the newest first in `historyIndex`.
 */
export function staleApprovals(s: SpecSnapshot): StaleApproval[] {
  // Derived once per snapshot: the guard, Approve Again and the views all ask, and each asking
  // hashes the approved files.
  const known = staleBySnapshot.get(s);
  if (known) return known;
  const found = computeStaleApprovals(s);
  staleBySnapshot.set(s, found);
  return found;
}

const staleBySnapshot = new WeakMap<SpecSnapshot, StaleApproval[]>();

function computeStaleApprovals(s: SpecSnapshot): StaleApproval[] {
  const history = s.state?.stage_history ?? [];
  const roots = { dir: s.dir, repoRoot: s.repoRoot };
  const byStage = new Map<string, StaleApproval>();
  history.forEach((entry, i) => {
    const prints = entry.approval_fingerprints;
    if (!prints || typeof prints !== 'object') return;
    const changed = changedFingerprints(prints, roots);
    if (changed.length === 0) return;
    const known = byStage.get(entry.stage);
    const approvedAt = entry.approved_at ?? entry.exited_at;
    if (!known) {
      byStage.set(entry.stage, { stage: entry.stage, approvedAt, historyIndex: i, historyIndices: [i], changed });
      return;
    }
    known.historyIndex = i;
    known.historyIndices.push(i);
    known.approvedAt = approvedAt;
    known.changed = [...new Set([...known.changed, ...changed])];
  });
  return [...byStage.values()];
}

/**
 * Approvals that Approve Again can renew: every stale one. loom's own `--approve` only passes the
 * current gate and never clears an old entry, so renewing rewrites the stale entries' fingerprints
 * in place (stateRecord.renewApprovals), the one state loom then accepts too.
 */
export const renewableApprovals = (stale: readonly StaleApproval[], _stage?: string | null): StaleApproval[] => [...stale];

const MTIME_TOLERANCE_MS = 2000;

function mtimeOf(path: string): number | undefined {
  try {
    const st = statSync(path);
    return st.isFile() ? st.mtimeMs : undefined;
  } catch {
    return undefined;
  }
}

/** How far the spec got: the index of its current stage (for a failed spec, the stage it failed in). */
function reachedIndex(s: SpecSnapshot, def: PipelineDefinition, stage: string | null): number {
  if (stage === null) return -1;
  const current = stage === FAILED_STAGE && s.state ? (failedFrom(s.state) ?? def.initial) : stage;
  return def.stages.findIndex((st) => st.id === current);
}

/**
 * "Upstream newer than derived", kept deliberately simple: for every stage the spec has left
 * behind, each of its output files must not be older than the spec files that stage reads
 * (`reads` of pipeline.schema.json). Only files inside the spec directory count; folders,
 * traceability.json (rewritten during executing) and a stage's own outputs (modified in place,
 * e.g. requirements.json in detail-expansion) are skipped; modification times closer than two
 * seconds count as equal, so a checkout that touches everything at once reports nothing.
 */
export function staleDerivations(s: SpecSnapshot, def: PipelineDefinition, stage: string | null, schema: PipelineSchemaFile = bundledPipelineSchema()): StaleDerivation[] {
  const reached = reachedIndex(s, def, stage);
  const out: StaleDerivation[] = [];
  const mtimes = new Map<string, number | undefined>();
  const mtime = (p: string) => {
    if (!mtimes.has(p)) mtimes.set(p, mtimeOf(join(s.dir, p)));
    return mtimes.get(p);
  };
  for (let i = 0; i < reached; i++) {
    const st = def.stages[i];
    const state = Object.hasOwn(schema.states, st.id) ? schema.states[st.id] : undefined;
    const reads = (state?.reads ?? [])
      .filter((r) => r.startsWith('specs/<date+feature>/'))
      .map(specRelative)
      .filter((r) => !r.endsWith('/') && !isTraceabilityLedger(r) && !st.outputs.includes(r));
    for (const output of st.outputs) {
      if (output.endsWith('/') || isTraceabilityLedger(output)) continue;
      const outTime = mtime(output);
      if (outTime === undefined) continue;
      for (const input of reads) {
        const inTime = mtime(input);
        if (inTime !== undefined && inTime - outTime > MTIME_TOLERANCE_MS) out.push({ stage: st.id, output, input });
      }
    }
  }
  return out;
}

/** Every kind of staleness of one spec. */
export function specStaleness(s: SpecSnapshot, def: PipelineDefinition, stage: string | null): SpecStaleness {
  return { handoffs: staleHandoffs(s), approvals: staleApprovals(s), derived: staleDerivations(s, def, stage) };
}

export const isStale = (st: SpecStaleness) => st.handoffs.length + st.approvals.length + st.derived.length > 0;

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/**
 * Staleness as Problems: a stale handoff at its fingerprint, a stale approval at its history
 * entry in pipeline.state.json, a stale derivation at the top of the derived file.
 */
export function stalenessDiagnostics(s: SpecSnapshot, st: SpecStaleness): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const h of st.handoffs) {
    const text = readText(join(s.dir, h.handoff));
    const located = locateJson(text);
    for (const path of h.changed) {
      const key = ['basis_fingerprints', 'artifact_fingerprints'].find((k) => located.offsetOf([k, path]) !== located.offsetOf([k]));
      const where = positionAt(text, located.offsetOf(key ? [key, path] : ['basis_fingerprints']));
      out.push(diagnostic(`${s.specDir}/${h.handoff}`, t('staleness.handoff', { handoff: `${s.specDir}/${h.handoff}`, path }), where, 'warning', 'stale-handoff'));
    }
  }
  if (st.approvals.length) {
    const text = readText(join(s.dir, PIPELINE_STATE_FILE));
    const located = locateJson(text);
    for (const a of st.approvals) {
      const where = positionAt(text, located.offsetOf(['stage_history', a.historyIndex, 'approval_fingerprints']));
      out.push(
        diagnostic(
          `${s.specDir}/${PIPELINE_STATE_FILE}`,
          a.approvedAt
            ? t('staleness.approvalAt', { stage: a.stage, approvedAt: a.approvedAt, changed: a.changed.join(', ') })
            : t('staleness.approval', { stage: a.stage, changed: a.changed.join(', ') }),
          where,
          'warning',
          'stale-approval',
        ),
      );
    }
  }
  for (const d of st.derived) {
    out.push(diagnostic(`${s.specDir}/${d.output}`, t('staleness.derived', { output: d.output, stage: d.stage, input: d.input }), { line: 1 }, 'info', 'stale-derivation'));
  }
  return out;
}
