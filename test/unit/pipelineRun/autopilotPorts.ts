import type { ChatModel } from '../../../src/core/executing/dispatch/chatModel';
import { request } from '../../../src/core/port/request';
import type { RunPorts } from '../../../src/core/pipelineRun/pipelineRun';
import type { SpecPipeline } from '../../../src/core/repository/specPipeline';

/**
 * The ports of an Autopilot run in the unit tests: the person says yes, Run Tasks is not there,
 * the worktree and the verification go through the spec's actor, the model is the test's.
 */
export function autopilotPorts(spec: SpecPipeline, model: () => Promise<ChatModel>, over: Partial<RunPorts> = {}): RunPorts {
  return {
    mode: 'autopilot',
    signal: new AbortController().signal,
    model,
    reviewDrafts: async () => true,
    confirm: async () => true,
    runTasks: async () => ({ kind: 'refused', message: 'no tasks run in these tests' }),
    createWorktree: () => request(spec, { type: 'createWorktree', location: '' }),
    verify: () => request(spec, { type: 'verify', verify: { trusted: true, writer: 'unit test' } }),
    sync: () => request(spec, { type: 'sync' }),
    ...over,
  };
}
