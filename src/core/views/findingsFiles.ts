import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FindingsFileSchema, type Finding } from '../files/findings';
import type { SpecSnapshot } from '../specdir/specSnapshot';

/**
 * The findings of `findings/*.json` (the omission hunter and other reviewers), by file stem. The
 * loader already reports files that do not parse; those are skipped here.
 */
export function readFindingsFiles(snapshot: Pick<SpecSnapshot, 'dir' | 'files'>): { source: string; file: string; findings: Finding[] }[] {
  const out: { source: string; file: string; findings: Finding[] }[] = [];
  const names = [...snapshot.files].filter((f) => f.startsWith('findings/') && f.endsWith('.json')).sort();
  for (const name of names) {
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(join(snapshot.dir, name), 'utf8'));
    } catch {
      continue;
    }
    const parsed = FindingsFileSchema().safeParse(data);
    if (parsed.success) out.push({ source: name.slice('findings/'.length, -'.json'.length), file: name, findings: parsed.data.findings });
  }
  return out;
}
