import type { z } from 'zod';
import { t } from '../messages';

/** A schema problem with its full path from the top of the file. */
export interface SchemaProblem {
  path: (string | number)[];
  message: string;
}

type Issue = z.core.$ZodIssue;

/**
 * zod reports a failed union (`requirements` as an array or as an object keyed by id) as one
 * "Invalid input" at the union itself, and a bad record key as "Invalid key in record". Both hide
 * the real problem, so they are unfolded here into the issues of the branch that fits the value's
 * shape, each with its full path, so that a diagnostic can point at the offending key.
 */
export function schemaProblems(issues: readonly Issue[], base: readonly (string | number)[] = []): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  for (const issue of issues) {
    const path = [...base, ...issue.path.filter((p): p is string | number => typeof p !== 'symbol')];
    if (issue.code === 'invalid_union' && issue.errors.length) {
      // A branch that failed only because the value is not of its type says nothing about the value.
      const wrongShape = (branch: Issue[]) => branch.every((i) => i.code === 'invalid_type' && i.path.length === 0);
      const fitting = issue.errors.filter((branch) => !wrongShape(branch));
      if (fitting.length === 1) {
        out.push(...schemaProblems(fitting[0], path));
        continue;
      }
      if (fitting.length === 0) {
        const expected = issue.errors.flatMap((branch) => branch.map((i) => (i.code === 'invalid_type' ? i.expected : undefined)));
        const names = [...new Set(expected.filter((e): e is string => e !== undefined))];
        if (names.length) {
          out.push({ path, message: t('files.expectedOneOf', { types: names.join(t('files.orSeparator')) }) });
          continue;
        }
      }
    }
    if (issue.code === 'invalid_key' && issue.issues.length) {
      out.push(...schemaProblems(issue.issues, path).map((p) => ({ ...p, message: t('files.invalidKey', { problem: p.message }) })));
      continue;
    }
    out.push({ path, message: issue.message });
  }
  return out;
}

/** `requirements.REQ-001.status`, or `the top level` for the file itself. */
export const describePath = (path: readonly (string | number)[]) => (path.length ? `"${path.join('.')}"` : t('files.topLevel'));
