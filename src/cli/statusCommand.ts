import { PIPELINE_STATE_FILE } from '../core/port/vocabulary';
import type { StatusDetail } from '../core/port/specs';
import { displayLanguage, t } from '../core/port/messages';
import { scanStatuses, specStatus } from '../core/port/tools';
import { flagValue, UsageError, type ParsedArgs } from './args';
import { json, spec, VERSION, type CommandCall } from './command';
import { formatStatuses, statusJson } from './format';
import { cliStatusCache } from './specCacheDir';

/** `--detail summary` (the default) or `full`. */
function statusDetail(args: ParsedArgs): StatusDetail {
  const value = flagValue(args, '--detail') ?? 'summary';
  if (value !== 'summary' && value !== 'full') throw new UsageError(t('cli.usage.badDetail', { value }));
  return value;
}

/** `status [--spec-dir D] [--detail summary|full]`: every spec's status (kept between runs), or one spec's. */
export function status({ repo, args, io, asJson }: CommandCall): number {
  const detail = statusDetail(args);
  const every = !args.flags.has('--spec-dir');
  const cache = every ? cliStatusCache(VERSION, repo.root, displayLanguage(), detail) : undefined;
  const statuses = every ? scanStatuses(repo, cache?.statuses, detail) : [specStatus(repo, spec(repo, args).snapshot.dir, detail)];
  if (asJson) json(io, every ? statuses.map(statusJson) : statusJson(statuses[0]));
  else io.out(statuses.length ? formatStatuses(statuses) : t('cli.status.noSpecs', { root: repo.root, roots: repo.specRoots.join(', ') }));
  // Written once the answer is out (one file, and only when a status changed).
  cache?.save();
  // Every spec is still reported, but a stage that could not be read is unreadable input (exit 2), as the README promises.
  const unreadable = statuses.filter((s) => s.stage_source === 'unknown');
  for (const s of unreadable) {
    const workflow = s.diagnostics.find((d) => d.code === 'workflow-unreadable');
    if (workflow) io.err(`loom-vscode: ${workflow.message}`);
    else io.err(`loom-vscode: ${t('cli.input.stageUnknown', { file: `${s.spec_dir}/${PIPELINE_STATE_FILE}`, specDir: s.spec_dir })}`);
  }
  return unreadable.length ? 2 : 0;
}
