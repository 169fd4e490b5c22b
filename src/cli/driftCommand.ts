import { driftFileLine, driftSummary, goneTestLine, repositoryDrift, type SpecDrift } from '../core/port/drift';
import { t } from '../core/port/messages';
import type { LoomRepository, SpecPipeline } from '../core/port/specs';
import type { CliIo } from './io';

/** GitHub's workflow commands: a message's `%`, CR and LF escaped; a property's `:` and `,` too. */
const ghData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const ghProperty = (s: string) => ghData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/**
 * A line CI annotates: on GitHub Actions a `::warning file=…::` workflow command (the file shown
 * on the pull request's diff), elsewhere `file: warning: message`, which problem matchers and
 * editors read as a location.
 */
function annotation(github: boolean, file: string | undefined, message: string): string {
  if (github) return `::warning ${file ? `file=${ghProperty(file)},` : ''}title=${ghProperty(t('drift.title'))}::${ghData(message)}`;
  return file ? `${file}: warning: ${message}` : message;
}

function specLines(d: SpecDrift, github: boolean): string[] {
  if (d.status === 'clean') return [t('drift.spec', { specDir: d.specDir, summary: driftSummary(d) })];
  if (d.status === 'unreadable') return [annotation(github, `${d.specDir}/pipeline.state.json`, t('drift.spec', { specDir: d.specDir, summary: driftSummary(d) }))];
  if (d.status !== 'drifted') return [annotation(github, undefined, t('drift.spec', { specDir: d.specDir, summary: driftSummary(d) }))];
  return [...d.files.map((f) => annotation(github, f.change === 'renamed' ? f.renamedTo : f.path, driftFileLine(d, f))), ...d.goneTests.map((g) => annotation(github, g.file, goneTestLine(d, g)))];
}

/**
 * `drift [--spec-dir D] [--json]`: whether each synced spec is still true to its code (one git
 * pass). Exit 1 when a spec drifted (a pull request's check fails), 2 when a spec's baseline
 * cannot be had (a shallow clone, a rewritten history: the answer is unknown, never guessed), 0
 * otherwise.
 */
export async function driftCommand(repo: LoomRepository, only: SpecPipeline | undefined, io: CliIo, asJson: boolean, env: Readonly<Record<string, string | undefined>>): Promise<number> {
  const report = await repositoryDrift(repo, only ? { only: [only] } : {});
  const drifted = report.specs.filter((d) => d.status === 'drifted').length;
  const unknown = report.specs.filter((d) => d.status === 'shallow' || d.status === 'unknown-baseline' || d.status === 'unreadable').length;
  if (asJson) {
    io.out(JSON.stringify({ head: report.head ?? null, shallow: report.shallow, drifted, specs: report.specs }, null, 2));
  } else if (!report.specs.length) {
    io.out(t('drift.none'));
  } else {
    const github = env.GITHUB_ACTIONS === 'true';
    io.out([...report.specs.flatMap((d) => specLines(d, github)), t('drift.total', { drifted, count: report.specs.length })].join('\n'));
  }
  return drifted ? 1 : unknown ? 2 : 0;
}
