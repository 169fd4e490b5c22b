import { personOf } from '../core/port/drift';
import { t } from '../core/port/messages';
import { request } from '../core/port/request';
import type { LoomRepository } from '../core/port/specs';
import { changedOrThrow } from './answers';
import { cliApprover } from './approver';
import { flagValue, UsageError, type ParsedArgs } from './args';
import type { CliIo } from './io';
import { specFromArg } from './specDirArg';

/**
 * `drift --accept --spec-dir D --reason "…"`: the person's Accept as Accurate, the spec's
 * baseline moved to HEAD through its actor, recording who (git's identity, else the account)
 * and why. Exit 0 when moved; a refusal prints as every refusal does.
 */
export async function acceptDrift(repo: LoomRepository, args: ParsedArgs, io: CliIo, asJson: boolean): Promise<number> {
  if (!args.flags.has('--accept')) throw new UsageError(t('cli.drift.reasonOnlyWithAccept'));
  const specDir = flagValue(args, '--spec-dir');
  const reason = flagValue(args, '--reason');
  if (!specDir || !reason?.trim()) throw new UsageError(t('cli.drift.acceptNeedsSpec'));
  const s = specFromArg(repo, specDir);
  const by = await personOf(repo.root, 'loom-vscode drift --accept');
  const { baseline } = changedOrThrow(await request(s, { type: 'moveBaseline', source: 'accepted', by, reason }, { approver: cliApprover(io) }), s);
  if (asJson) io.out(JSON.stringify({ spec_dir: s.snapshot.specDir, baseline }, null, 2));
  else
    io.out(t('drift.accept.done', { specDir: s.snapshot.specDir, commit: baseline.commit.slice(0, 7), source: t('drift.source.accepted'), by: baseline.by ?? by, reason: baseline.reason ?? reason }));
  return 0;
}
