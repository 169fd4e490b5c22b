import { relative, sep } from 'node:path';
import { matchSpecDir, type LoomRepository, type SpecPipeline, findSpecDirs } from '../core/port/specs';
import { t } from '../core/port/messages';
import { UsageError } from './args';

/**
 * The spec `--spec-dir` names: its directory (`specs/2026-11-25+due-dates`), else its folder name
 * (`2026-11-25+due-dates`) or its feature name (`due-dates`) when one spec has it; otherwise a
 * usage error naming the specs it may have meant.
 */
export function specFromArg(repo: LoomRepository, dir: string): SpecPipeline {
  const direct = repo.get(dir);
  if (direct) return direct;
  const specDirs = findSpecDirs(repo.root, repo.specRoots).map((d) => relative(repo.root, d).split(sep).join('/'));
  const match = matchSpecDir(specDirs, dir);
  if (match.kind === 'found') {
    const named = repo.get(match.specDir);
    if (named) return named;
  }
  if (match.kind === 'ambiguous') throw new UsageError(t('cli.usage.specDirAmbiguous', { dir, specDirs: match.specDirs.join(', ') }));
  if (match.kind === 'unknown' && match.suggestions.length) throw new UsageError(t('cli.usage.notSpecDirDidYouMean', { dir, root: repo.root, suggestions: match.suggestions.join(', ') }));
  throw new UsageError(t('cli.usage.notSpecDir', { dir, root: repo.root }));
}
