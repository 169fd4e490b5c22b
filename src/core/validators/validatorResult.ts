import type { Finding } from '../files/findings';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import type { FindingFix } from './findingFix';

/** What a deterministic validator found: each problem is a sentence for the user. */
export interface ValidatorResult {
  name: string;
  passed: boolean;
  problems: string[];
  /**
   * The same problems as findings in finding.schema.json form, each with the spec-relative file
   * and line it concerns and a `suggested_fix` where one is known, for the Problems panel. Only
   * validators that locate their problems give them.
   */
  findings?: Finding[];
  /**
   * Fixes that can be applied without judgment, by finding id (in memory only: finding.schema.json
   * allows no extra keys in a finding). The Problems panel offers them as quick fixes.
   */
  fixes?: ReadonlyMap<string, FindingFix>;
  /**
   * Findings that report work still under way (a task not run or not finished yet) rather than a
   * fault in a file: they block leaving the stage all the same, but the Problems panel shows them
   * as information, so that a spec at executing does not fill it with errors.
   */
  inProgress?: ReadonlySet<string>;
  /**
   * Error findings the user accepted with an override, by finding id, with the reason and who
   * recorded it. They still fail the validator (loom reads no override); they are shown lower.
   */
  overridden?: ReadonlyMap<string, { reason: string; by?: string }>;
}

export interface ValidatorOptions {
  /**
   * Find the line of each finding (default). Locating a key in a JSON file parses it again with
   * positions; a guard that only asks pass or fail, for every spec of a status scan, skips it.
   */
  locate?: boolean;
}

export type Validator = (snapshot: SpecSnapshot, options?: ValidatorOptions) => ValidatorResult;

export const result = (name: string, problems: string[]): ValidatorResult => ({ name, passed: problems.length === 0, problems });

/** A result built from findings: it fails on any blocker or error among them. */
export const findingsResult = (name: string, findings: Finding[]): ValidatorResult => {
  const blocking = findings.filter((f) => f.severity === 'blocker' || f.severity === 'error');
  return { name, passed: blocking.length === 0, problems: blocking.map((f) => f.message), findings };
};
