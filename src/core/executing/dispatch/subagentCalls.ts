import { DispatchTimeoutError, type DispatchResult } from './dispatcher';
import { parseImplementerReport, type ImplementerReport } from './implementerReport';
import { parseImplementerStatus, type ImplementerStatus } from './implementerStatus';
import { dispatchCounted, type LoopEnvironment } from '../machine/loopEnvironment';
import type { ModelTier } from './modelTier';
import { parseReviewerVerdict } from './reviewerVerdict';
import type { FixItem } from './fixInstructions';
import { describeTestLocations, testLocationsNote, testLocationsOfRun } from '../tools/testWriteScope';
import { WorkspaceTools, type WriteScope } from '../tools/workspaceTools';

/**
 * The two kinds of dispatch the loop makes: an implementer, whose answer ends in a status, and
 * a judge (reviewer or test reporter), whose answer ends in a verdict. A reply missing its
 * status or verdict gets one short request for it in the same conversation; a reply still
 * missing it is malformed. A subagent that runs out of time is reported, never retried here.
 */
export type ImplementerResult =
  | { kind: 'status'; status: ImplementerStatus; detail: string; report: ImplementerReport; dispatchId: string }
  | { kind: 'malformed'; reason: string; report: ImplementerReport; dispatchId: string }
  | { kind: 'timeout'; minutes: number };

export type JudgeResult =
  | { kind: 'verdict'; verdict: 'PASS' | 'FAIL'; fixItems: FixItem[]; text: string; dispatchId: string }
  | { kind: 'malformed'; reason: string; text: string; dispatchId: string }
  | { kind: 'timeout'; minutes: number };

function toolsFor(env: LoopEnvironment, task: string, role: 'implementer' | 'reviewer' | 'test-reporter', scope: WriteScope): WorkspaceTools {
  // The test reporter writes in the project's test locations: the worktree's and those the tasks own.
  if (scope.kind === 'tests-only' && !scope.locations) scope = { kind: 'tests-only', locations: testLocationsOfRun(env.worktree, env.tasks.values(), env.protectedPaths) };
  return new WorkspaceTools({
    worktree: env.worktree,
    task,
    role,
    scope,
    protectedPaths: env.protectedPaths,
    trusted: env.trusted,
    testCommand: env.testCommand,
    testRunner: env.testRunner,
    testTimeoutMs: env.testTimeoutMs,
    log: (r) => env.logger.info(`tool ${r.tool} by the ${r.role} of ${r.task}: ${r.outcome}: ${r.message}`),
    now: env.now,
  });
}

async function timed<T>(work: () => Promise<T>): Promise<T | { kind: 'timeout'; minutes: number }> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof DispatchTimeoutError) return { kind: 'timeout', minutes: e.minutes };
    throw e;
  }
}

const DIRECT_SESSION_SHARE = 0.6;

export async function callImplementer(env: LoopEnvironment, req: { task: string; mode: 'first' | 'fix'; prompt: string; tier: ModelTier; scope: WriteScope }): Promise<ImplementerResult> {
  return timed(async (): Promise<ImplementerResult> => {
    const model = await env.models.select('implementer', req.tier, env.signal);
    env.emit({ type: 'role-started', task: req.task, role: 'implementer', mode: req.mode, tier: req.tier, model: model.id });
    // Direct mode keeps one conversation; it starts over when it would crowd the model's window.
    const direct = env.mode === 'direct';
    if (direct && env.direct.tokens > model.maxInputTokens * DIRECT_SESSION_SHARE) {
      env.logger.info(`direct session: ${env.direct.tokens} tokens of history; starting a fresh conversation`);
      env.direct.messages = [];
      env.direct.tokens = 0;
    }
    const tools = toolsFor(env, req.task, 'implementer', req.scope);
    let result = await dispatchCounted(env, { task: req.task, role: 'implementer', mode: req.mode, model, history: direct ? env.direct.messages : [], prompt: req.prompt, tools });
    env.emit({ type: 'prompt-size', task: req.task, mode: req.mode, tokens: result.promptTokens });
    const allText = result.allText;
    let parsed = parseImplementerStatus(result.text);
    if (!parsed.ok) {
      result = await dispatchCounted(env, { task: req.task, role: 'implementer', mode: req.mode, model, history: result.messages, prompt: env.inputs.templates['repair-status-prompt'] });
      parsed = parseImplementerStatus(result.text);
    }
    if (direct) keepDirect(env, result);
    const report = parseImplementerReport(allText);
    if (!parsed.ok) {
      env.emit({ type: 'implementer-status', task: req.task, status: 'malformed', detail: parsed.reason });
      return { kind: 'malformed', reason: parsed.reason, report, dispatchId: result.dispatchId };
    }
    env.emit({ type: 'implementer-status', task: req.task, status: parsed.status, detail: parsed.detail });
    return { kind: 'status', status: parsed.status, detail: parsed.detail, report, dispatchId: result.dispatchId };
  });
}

function keepDirect(env: LoopEnvironment, result: DispatchResult): void {
  env.direct.messages = result.messages;
  env.direct.tokens = result.lastRequestTokens;
}

export async function callJudge(env: LoopEnvironment, req: { task: string; role: 'reviewer' | 'test-reporter'; prompt: string; tier: ModelTier; scope: WriteScope }): Promise<JudgeResult> {
  return timed(async (): Promise<JudgeResult> => {
    const model = await env.models.select(req.role, req.tier, env.signal);
    const mode = req.role === 'reviewer' ? 'review' : 'report';
    env.emit({ type: 'role-started', task: req.task, role: req.role, mode, tier: req.tier, model: model.id });
    const tools = toolsFor(env, req.task, req.role, req.scope);
    // The test reporter is told where it may write; the transcript shows the same sentence.
    const prompt = tools.testLocations ? `${req.prompt}\n\n${testLocationsNote(tools.testLocations, env.inputs.language)}` : req.prompt;
    if (tools.testLocations) env.logger.info(`${req.task}: the ${req.role} may write ${describeTestLocations(tools.testLocations)}`);
    let result = await dispatchCounted(env, { task: req.task, role: req.role, mode, model, history: [], prompt, tools });
    let text = result.allText;
    let verdict = parseReviewerVerdict(result.text);
    if (!verdict.ok) verdict = parseReviewerVerdict(result.allText);
    if (!verdict.ok) {
      result = await dispatchCounted(env, { task: req.task, role: req.role, mode, model, history: result.messages, prompt: env.inputs.templates['repair-verdict-prompt'] });
      text = `${text}\n\n${result.text}`;
      verdict = parseReviewerVerdict(result.text);
    }
    if (!verdict.ok) {
      env.emit({ type: 'verdict', task: req.task, verdict: 'malformed', fixItems: 0 });
      return { kind: 'malformed', reason: verdict.reason, text, dispatchId: result.dispatchId };
    }
    env.emit({ type: 'verdict', task: req.task, verdict: verdict.verdict, fixItems: verdict.fixItems.length });
    return { kind: 'verdict', verdict: verdict.verdict, fixItems: verdict.fixItems, text, dispatchId: result.dispatchId };
  });
}
