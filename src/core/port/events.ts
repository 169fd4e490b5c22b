import type { ExecutingMachineInput } from '../executing/machine/executingMachine';
import type { PipelineEvent } from '../pipeline/machineTypes';
import type { Intent, RequestOptions } from './intent';

/** The intents answered when their work ends (INTENT_OPERATIONS says `long`). */
export type LongIntent = 'runTasks' | 'createWorktree' | 'verify' | 'answerReview' | 'rewind' | 'rejectFile' | 'sendThreads';

/**
 * What only the request holds for a run (Run Tasks, Answer Review): where the spec is, its
 * pipeline, and the supervision's ports (absent when the request only asks what the actor would do).
 */
export type RunPorts = Pick<ExecutingMachineInput, 'repoRoot' | 'specDir' | 'definition' | 'work' | 'onEvent'>;

const codeAt = (options: RequestOptions) => (options.codeCommit ? { codeCommit: options.codeCommit } : {});

/** The event an intent is to the spec's actor; a run's event carries the ports the request holds for it. */
export function eventOf(intent: Intent, options: RequestOptions, id: string, now: string, ports?: RunPorts): PipelineEvent {
  const confirm = options.confirm !== undefined ? { confirm: options.confirm } : {};
  const approver = options.approver ? { approver: options.approver } : {};
  switch (intent.type) {
    case 'runTasks': {
      const { prompts: _prompts, signal: _signal, ...input } = intent.run;
      return { type: 'RUN_TASKS', id, now, ...confirm, input: { ...input, ...ports! } };
    }
    case 'answerReview': {
      const { prompts: _prompts, signal, ...input } = intent.answer.run;
      return { type: 'ANSWER_REVIEW', id, now, writer: intent.answer.writer, signal, input: { ...input, ...ports! } };
    }
    case 'createWorktree':
      return { type: 'CREATE_WORKTREE', id, now, location: intent.location ?? '', ...(intent.signal ? { signal: intent.signal } : {}) };
    case 'verify':
      return { type: 'VERIFY', id, now, verify: intent.verify };
    case 'advance':
      return { type: 'ADVANCE', id, now, to: intent.to, compressionConfirmed: intent.compressionConfirmed === true, reason: intent.reason, ...confirm, ...codeAt(options), ...approver };
    case 'approve':
      return { type: 'APPROVE', id, now, compressionConfirmed: intent.compressionConfirmed === true, reason: intent.reason, ...confirm, ...codeAt(options), ...approver };
    case 'reapprove':
      return { type: 'REAPPROVE', id, now, stage: intent.stage, reason: intent.reason };
    case 'fail':
      return { type: 'FAIL', id, now, reason: intent.reason, validator: intent.validator };
    case 'recover':
      return { type: 'RECOVER', id, now, to: intent.to, reason: intent.reason };
    case 'stopTasks':
      return { type: 'STOP_TASKS', id };
    case 'adjustSteps':
      return { type: 'ADJUST_STEPS', id, now, current: intent.current ?? [], remaining: intent.remaining, ...confirm };
    case 'startPipeline':
      return { type: 'START_PIPELINE', id, now, steps: intent.steps, why: intent.why ?? [], ...confirm };
    case 'initState':
      return { type: 'INIT_STATE', id, now, stage: intent.stage };
    case 'setTaskState':
      return { type: 'SET_TASK_STATE', id, now, task: intent.task, status: intent.status, blocker: intent.blocker };
    case 'writeHandoff':
      return { type: 'WRITE_HANDOFF', id, now, handoff: intent.handoff };
    case 'checkStage':
      return { type: 'CHECK_STAGE', id, now };
    case 'sync':
      return { type: 'SYNC', id, now };
    case 'analyzeArtifacts':
      return { type: 'WRITE_REPORT', id, now, report: { kind: 'artifactAnalysis', ...(intent.override ? { override: intent.override } : {}) } };
    case 'converge':
      return { type: 'WRITE_REPORT', id, now, report: { kind: 'convergence', ...(intent.round !== undefined ? { round: intent.round } : {}) } };
    case 'huntOmissions':
      return { type: 'WRITE_REPORT', id, now, report: { kind: 'omissionHunt' } };
    case 'rewind':
      return { type: 'TASK_CHANGE', id, now, change: { kind: 'rewind', task: intent.task }, signal: intent.signal, ...confirm };
    case 'moveBaseline':
      return { type: 'MOVE_BASELINE', id, now, source: intent.source, by: intent.by, reason: intent.reason, ...codeAt(options), ...approver };
    case 'rejectFile':
      return { type: 'TASK_CHANGE', id, now, change: { kind: 'rejectFile', task: intent.task, file: intent.file, words: intent.words }, signal: intent.signal };
    case 'recordSpend':
      return { type: 'RECORD_SPEND', id, now, spend: intent.spend };
    case 'sendThreads':
      return { type: 'TASK_CHANGE', id, now, change: { kind: 'sendThreads', task: intent.task }, signal: intent.signal };
  }
}
