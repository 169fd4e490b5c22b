import { createSpec } from '../core/port/specs';
import { languageOfLocale, t } from '../core/port/messages';
import { flagValue, requireFlag, UsageError } from './args';
import { json, type CommandCall } from './command';

/** `new --name N [--spec-root R] [--type T]`: a spec started at its pipeline's first stage, as loom's `new` starts one. */
export function newSpec({ repo, args, io, asJson }: CommandCall): number {
  const name = requireFlag(args, '--name');
  const specRoot = flagValue(args, '--spec-root') ?? repo.specRoots[0];
  if (!repo.specRoots.includes(specRoot)) throw new UsageError(t('cli.usage.specRoot', { roots: repo.specRoots.join(', ') }));
  // A qa/ spec follows the qa pipeline, as a spec found there without a state file does.
  const pipelineType = flagValue(args, '--type') ?? (specRoot === 'qa' ? 'qa' : repo.defaultPipelineType);
  // The spec.md template follows the terminal's locale (LANG=zh_CN.UTF-8 gets the Chinese one).
  const language = languageOfLocale(process.env.LC_ALL || process.env.LANG);
  const created = createSpec(repo.root, name, new Date(), { specRoot, pipelineType, stage: repo.definition(pipelineType).initial, definition: repo.definition(pipelineType), language });
  if (asJson) json(io, { spec_dir: created.specDir, pipeline_type: pipelineType, stage: repo.definition(pipelineType).initial });
  else io.out(t('cli.new.started', { specDir: created.specDir, stage: repo.definition(pipelineType).initial, pipeline: pipelineType }));
  return 0;
}
