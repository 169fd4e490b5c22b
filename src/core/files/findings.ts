import type { z } from 'zod';
import { lazySchema } from '../../shared/lazySchema';

export const FINDING_KINDS = ['missing', 'partial', 'contradicts', 'unrequested', 'stale', 'placeholder', 'format'] as const;
export const FINDING_SEVERITIES = ['info', 'warning', 'error', 'blocker'] as const;

export const FindingSchema = lazySchema((z) =>
  z.looseObject({
    id: z.string(),
    // loom's own analyze and converge scripts write kinds beyond its published schema
    // (`orphan_task`, `unknown_behavior`, ...): what loom writes must read, so any word is taken.
    // The extension itself writes only FINDING_KINDS, which editors still offer first.
    kind: z.union([z.enum(FINDING_KINDS), z.string().min(1)]),
    severity: z.enum(FINDING_SEVERITIES),
    message: z.string().min(1),
    requirement_id: z.string().optional(),
    behavior_id: z.string().optional(),
    task_id: z.string().optional(),
    artifact: z.string().optional(),
    location: z.looseObject({ file: z.string().optional(), line: z.number().int().min(1).optional(), symbol: z.string().optional() }).optional(),
    suggested_fix: z.looseObject({ action: z.string().optional(), details: z.string().optional() }).optional(),
  }),
);
export type Finding = z.infer<ReturnType<typeof FindingSchema>>;

export const FindingsFileSchema = lazySchema((z) => z.looseObject({ findings: z.array(FindingSchema()), summary: z.record(z.string(), z.unknown()).optional() }));

/**
 * An error finding the user accepted, with the reason they gave and who they are. Loom has no
 * override: its run --advance re-runs the analysis and still refuses the finding, so an override
 * only changes how the extension shows it. The extension keeps them in
 * artifact-analysis.overrides.json (older versions wrote them into artifact-analysis.json, which
 * is still read); `message` ties the override to the finding it was given for, since finding ids
 * are renumbered on every analysis.
 */
export const FindingOverrideSchema = lazySchema((z) =>
  z.looseObject({
    finding_id: z.string(),
    message: z.string().optional(),
    reason: z.string().min(1),
    at: z.string(),
    by: z.string().optional(),
  }),
);
export type FindingOverride = z.infer<ReturnType<typeof FindingOverrideSchema>>;

export const ArtifactAnalysisSchema = lazySchema((z) =>
  z.looseObject({
    stage: z.string().optional(),
    status: z.enum(['pass', 'blocked']),
    coverage: z.record(z.string(), z.unknown()).default({}),
    findings: z.array(FindingSchema()).default([]),
    blocker_count: z.number().int().min(0).default(0),
    overrides: z.array(FindingOverrideSchema()).optional(),
  }),
);
export type ArtifactAnalysis = z.infer<ReturnType<typeof ArtifactAnalysisSchema>>;

export const ConvergenceReportSchema = lazySchema((z) =>
  z.looseObject({
    stage: z.string().optional(),
    round: z.number().int().min(0).optional(),
    status: z.enum(['converged', 'needs_another_round']),
    classification: z.record(z.string(), z.string()).default({}),
    findings: z.array(FindingSchema()).default([]),
    coverage: z.record(z.string(), z.unknown()).default({}),
    blocker_count: z.number().int().min(0).default(0),
  }),
);
export type ConvergenceReport = z.infer<ReturnType<typeof ConvergenceReportSchema>>;

/** The folder of a spec directory whose `*.json` files are findings files. */
export const FINDINGS_DIR = 'findings';
export const ARTIFACT_ANALYSIS_FILE = 'artifact-analysis.json';
export const CONVERGENCE_REPORT_FILE = 'convergence-report.json';
