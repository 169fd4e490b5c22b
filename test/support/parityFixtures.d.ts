/** Types of parityFixtures.js, which the integration suite (plain JS) shares with the unit suite. */
export interface ParityCase {
  name: string;
  expect: { kind: 'changed' | 'refused' | 'needs-confirmation'; code?: string };
  threadsRule?: boolean;
}
export interface WrittenCase extends ParityCase {
  specDir: string;
  dir: string;
}
export const CASES: ParityCase[];
export const SPEC_MD: string;
export function specName(c: ParityCase): string;
export function writeParitySpecs(root: string, lockPid: number): WrittenCase[];
export function writeThreadsRule(root: string, on: boolean): void;
