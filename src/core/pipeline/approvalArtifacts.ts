import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fingerprintDeclaredPaths, isReviewComments, isTraceabilityLedger } from '../specdir/fingerprints';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { stageOf, type PipelineDefinition } from './pipelineDefinition';

/** Loom fingerprints these on every approval, besides the steps' own files (pipeline-engine.js). */
const APPROVAL_ARTIFACTS = ['spec.md', 'requirements.json', 'plan.md', 'artifact-analysis.json', 'review-request.md', 'review-feedback.md', 'qa-cases.md', 'manual-checklist.md'];

/**
 * The files loom fingerprints when a human-approval gate is passed (`approvalArtifactPaths`): the
 * gate step's `requires`, `approval_requires` and `outputs`, the next step's `requires` and the
 * key spec files, those that exist; never traceability.json, which executing updates legitimately.
 */
export function approvalArtifacts(def: PipelineDefinition, stageId: string, snapshot: Pick<SpecSnapshot, 'dir'>): string[] {
  const candidates = [...(stageOf(def, stageId)?.approvalArtifacts ?? []), ...APPROVAL_ARTIFACTS];
  return [...new Set(candidates)].filter((p) => !isTraceabilityLedger(p) && !isReviewComments(p)).filter((p) => existsSync(join(snapshot.dir, p.replace(/\/$/, ''))));
}

/** The sha256 of every file the gate of `stageId` approves, as they are now. */
export function approvalFingerprints(def: PipelineDefinition, stageId: string, snapshot: Pick<SpecSnapshot, 'dir' | 'repoRoot'>): Record<string, string> {
  return fingerprintDeclaredPaths(approvalArtifacts(def, stageId, snapshot), { dir: snapshot.dir, repoRoot: snapshot.repoRoot });
}
