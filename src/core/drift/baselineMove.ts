import { userInfo } from 'node:os';
import { gitOutput } from '../git/gitCommand';
import { t } from '../messages';
import type { Answer } from '../port/answer';
import type { PipelineContext, PipelineEvent } from '../pipeline/machineTypes';
import type { PipelineDefinition } from '../pipeline/pipelineDefinition';
import type { RefusalCode } from '../pipeline/refusals';
import { stageWithRole } from '../pipeline/stageRoles';
import { withBaseline, type RecordedBaseline } from './baseline';

type Sender = { send: (event: PipelineEvent) => void };

/**
 * The actor's effect of `moveBaseline` (the machine takes it only at the stage that syncs): the
 * state's `metadata.drift_baseline` set to the commit the request found the code at, with the
 * request's `now`, who and why, written through the store under the request's run lock. Nothing
 * else of the state changes, so loom 3 reads it as before (its store keeps `metadata` as it is).
 */
export function moveBaseline(context: PipelineContext, event: PipelineEvent, self: Sender): void {
  if (event.type !== 'MOVE_BASELINE') return;
  const { specDir } = context.facts;
  const at = context.state?.current_stage ?? null;
  const refuse = (message: string, code: RefusalCode, file?: string): Answer => ({ kind: 'refused', code, codes: [code], message, reasons: [], remedies: [], stage: at, ...(file ? { file } : {}) });
  let answer: Answer;
  let written: ReturnType<typeof withBaseline> | undefined;
  try {
    const reason = event.reason.trim();
    const by = event.by.trim();
    // Accepting the code as it is is a person's act: the team's rule takes no agent's word for it (loom.approvals.requirePerson).
    if (event.source === 'accepted' && context.verdicts.rules.requirePerson === true && event.approver?.by === 'agent')
      answer = refuse(t('drift.accept.personRequired', { specDir }), 'person-required');
    else if (!context.state) answer = refuse(t('drift.accept.noState', { specDir }), 'no-state-record', 'pipeline.state.json');
    // A person's acceptance says why; a reconcile's reason is the amendment itself.
    else if (!reason && event.source === 'accepted') answer = refuse(t('drift.accept.noReason', { specDir }), 'invalid-request');
    else if (!event.codeCommit) answer = refuse(t('drift.accept.noCommit', { specDir }), 'invalid-request');
    else {
      const baseline: RecordedBaseline = { commit: event.codeCommit, recorded_at: event.now, source: event.source, ...(by ? { by } : {}), ...(reason ? { reason } : {}) };
      written = withBaseline(context.state, baseline);
      context.store.writeState(context.facts, written, event.now);
      answer = { kind: 'changed', intent: 'moveBaseline', from: at, to: at, state: written, baseline };
    }
  } catch (error) {
    self.send({ type: 'ANSWERED', id: event.id, error });
    return;
  }
  self.send({ type: 'ANSWERED', id: event.id, answer, ...(written ? { state: written } : {}) });
}

/** Why the machine did not take `moveBaseline` at `stage`: the spec is not synced (or its pipeline never syncs). */
export function baselineNotMoved(def: PipelineDefinition, specDir: string, stage: string): { message: string; code: RefusalCode } {
  const sync = stageWithRole(def, 'sync');
  if (!sync) return { message: t('drift.accept.noSyncStage', { pipeline: def.type }), code: 'no-sync-stage' };
  return { message: t('drift.accept.notSynced', { specDir, stage, sync: sync.id }), code: 'not-at-sync' };
}

/**
 * Who accepts the code as it is: the repository's git identity (`user.name <user.email>`), else
 * the account's user name, with the surface it came through; as a commit would name them.
 */
export async function personOf(repoRoot: string, via: string, signal?: AbortSignal): Promise<string> {
  const value = async (key: string) => {
    const r = await gitOutput(repoRoot, ['config', '--get', key], { signal }).catch(() => undefined);
    return r?.code === 0 ? r.stdout.trim() : '';
  };
  const [name, email] = await Promise.all([value('user.name'), value('user.email')]);
  let who = name && email ? `${name} <${email}>` : name || email;
  if (!who) {
    try {
      who = userInfo().username;
    } catch {
      // No account entry (some containers): the environment's name, or the surface alone.
      who = process.env.USER ?? process.env.USERNAME ?? '';
    }
  }
  return who ? `${who} (${via})` : via;
}
