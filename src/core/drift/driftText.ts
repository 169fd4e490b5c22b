import { t } from '../messages';
import type { DriftBaseline, DriftedFile, SpecDrift } from './driftScan';

/** A commit as people read it in a line: its first seven hex digits, as git abbreviates. */
export const shortCommit = (commit: string) => commit.slice(0, 7);

function baselineText(b: DriftBaseline | undefined): string {
  if (!b) return '?';
  return b.source === 'inferred' ? t('drift.baseline.inferred', { commit: shortCommit(b.commit) }) : shortCommit(b.commit);
}

/** One phrase for a spec's drift: "3 files changed since a1b2c3d", the tree's row and `#loomStatus` say it. */
export function driftSummary(d: SpecDrift): string {
  switch (d.status) {
    case 'drifted':
      return t('drift.summary.drifted', { count: d.files.length, baseline: baselineText(d.baseline) });
    case 'clean':
      return t('drift.summary.clean', { baseline: baselineText(d.baseline) });
    case 'shallow':
      return t('drift.summary.shallow');
    case 'unknown-baseline':
      return t('drift.summary.unknownBaseline', { baseline: baselineText(d.baseline) });
    case 'no-baseline':
      return t('drift.summary.noBaseline');
    case 'unreadable':
      return t('drift.summary.unreadable', { file: 'pipeline.state.json' });
  }
}

function changeText(f: DriftedFile): string {
  return f.change === 'renamed' ? t('drift.change.renamed', { to: f.renamedTo ?? '?' }) : t(`drift.change.${f.change}`);
}

/** The line that says one drifted file: the spec, the file, how, by which commits, since which baseline, and why the spec speaks for it. */
export function driftFileLine(d: SpecDrift, f: DriftedFile): string {
  const why = f.tasks.length ? t('drift.why.tasks', { tasks: f.tasks.join(', ') }) : f.behaviors.length ? t('drift.why.behaviors', { behaviors: f.behaviors.join(', ') }) : '';
  return t('drift.file', { specDir: d.specDir, file: f.path, change: changeText(f), commits: f.commits.map(shortCommit).join(', '), baseline: baselineText(d.baseline), why });
}

/** The line that names the behaviors a deleted test file tested. */
export function goneTestLine(d: SpecDrift, gone: SpecDrift['goneTests'][number]): string {
  return t('drift.goneTest', { specDir: d.specDir, file: gone.file, commit: shortCommit(gone.commit), behaviors: gone.behaviors.join(', ') });
}
