import { t } from '../core/port/messages';
import { request } from '../core/port/request';
import { changedOrThrow } from './answers';
import { cliApprover } from './approver';
import { flagValue, requireFlag, UsageError } from './args';
import { json, spec, type CommandCall } from './command';

/**
 * The spec's moves from the terminal (loom's `run --advance`, `--approve`, `--fail`, `--recover`
 * and Approve Again): each an intent to the spec's actor, which decides; a refusal is its answer.
 */

/** `advance --spec-dir D [--to S] [--confirm] [--compression-confirmed] [--reason R]`. */
export async function advance({ repo, args, io, asJson }: CommandCall): Promise<number> {
  const s = spec(repo, args);
  const moved = changedOrThrow(
    await request(
      s,
      { type: 'advance', to: flagValue(args, '--to'), compressionConfirmed: args.flags.has('--compression-confirmed'), reason: flagValue(args, '--reason') },
      // The person at the terminal gave their word up front.
      args.flags.has('--confirm') ? { confirm: true, approver: cliApprover(io) } : {},
    ),
    s,
  );
  if (asJson) json(io, { spec_dir: s.snapshot.specDir, from: moved.from, to: moved.to });
  else io.out(t('cli.moved', { specDir: s.snapshot.specDir, from: moved.from ?? '', to: moved.to ?? '' }));
  return 0;
}

/** `approve --spec-dir D`: loom's `run --approve`, the person at the terminal approving is their word on the gate. */
export async function approve({ repo, args, io, asJson }: CommandCall): Promise<number> {
  const s = spec(repo, args);
  const approved = changedOrThrow(
    await request(s, { type: 'approve', compressionConfirmed: args.flags.has('--compression-confirmed'), reason: flagValue(args, '--reason') }, { confirm: true, approver: cliApprover(io) }),
    s,
  );
  if (asJson) json(io, { spec_dir: s.snapshot.specDir, from: approved.from, to: approved.to });
  else io.out(t('cli.moved', { specDir: s.snapshot.specDir, from: approved.from ?? '', to: approved.to ?? '' }));
  return 0;
}

/** `fail --spec-dir D --reason R`: Mark Failed, with the reason loom records. */
export async function fail({ repo, args, io, asJson }: CommandCall): Promise<number> {
  const s = spec(repo, args);
  const reason = requireFlag(args, '--reason');
  if (!reason.trim()) throw new UsageError(t('cli.usage.failNeedsReason'));
  const failed = changedOrThrow(await request(s, { type: 'fail', reason }), s);
  if (asJson) json(io, { spec_dir: s.snapshot.specDir, from: failed.from, to: failed.to });
  else io.out(t('cli.failed', { specDir: s.snapshot.specDir, from: failed.from ?? '', reason }));
  return 0;
}

/** `recover --spec-dir D --to S`: out of `failed` to the stage named. */
export async function recover({ repo, args, io, asJson }: CommandCall): Promise<number> {
  const s = spec(repo, args);
  const moved = changedOrThrow(await request(s, { type: 'recover', to: requireFlag(args, '--to'), reason: flagValue(args, '--reason') }), s);
  if (asJson) json(io, { spec_dir: s.snapshot.specDir, from: moved.from, to: moved.to });
  else io.out(t('cli.moved', { specDir: s.snapshot.specDir, from: moved.from ?? '', to: moved.to ?? '' }));
  return 0;
}

/** `reapprove --spec-dir D [--stage S]`: Approve Again, a stale approval renewed where the spec is. */
export async function reapprove({ repo, args, io, asJson }: CommandCall): Promise<number> {
  const s = spec(repo, args);
  const renewed = changedOrThrow(await request(s, { type: 'reapprove', stage: flagValue(args, '--stage'), reason: flagValue(args, '--reason') }), s);
  const { stage, changed } = renewed.reapproved;
  const current = renewed.state?.current_stage ?? renewed.to ?? '';
  if (asJson) json(io, { spec_dir: s.snapshot.specDir, stage, changed, current_stage: current });
  else io.out(t('cli.reapproved', { specDir: s.snapshot.specDir, stage, changed: changed.join(', '), current }));
  return 0;
}
