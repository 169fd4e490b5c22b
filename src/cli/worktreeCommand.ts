import { t } from '../core/port/messages';
import { request } from '../core/port/request';
import { changedOrThrow } from './answers';
import { flagValue } from './args';
import { json, spec, type CommandCall } from './command';

/** `worktree --spec-dir D [--location L]`: Create Worktree, the feature's worktree made or reused by the spec's actor. */
export async function worktree({ repo, args, io, asJson }: CommandCall): Promise<number> {
  const s = spec(repo, args);
  const made = changedOrThrow(await request(s, { type: 'createWorktree', location: flagValue(args, '--location') ?? '' }), s);
  const { worktree } = made;
  if (asJson) json(io, { spec_dir: s.snapshot.specDir, ...worktree });
  else io.out(t(worktree.created ? 'cli.worktree.created' : 'cli.worktree.reused', { specDir: s.snapshot.specDir, branch: worktree.branch, path: worktree.path }));
  return 0;
}
