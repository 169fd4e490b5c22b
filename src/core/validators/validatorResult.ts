import type { SpecSnapshot } from '../spec/specSnapshot';

/** What a deterministic validator found: each problem is a sentence for the user. */
export interface ValidatorResult {
  name: string;
  passed: boolean;
  problems: string[];
}

export type Validator = (snapshot: SpecSnapshot) => ValidatorResult;

export const result = (name: string, problems: string[]): ValidatorResult => ({ name, passed: problems.length === 0, problems });
