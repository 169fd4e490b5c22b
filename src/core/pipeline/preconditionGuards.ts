import { specRelative } from '../fs/paths';
import { guard, type GuardCall } from './guardCall';
import type { Precondition } from './pipelineSchema';

export interface CompiledPrecondition {
  /** Checks made before entering the stage. */
  enter: GuardCall[];
  /** Checks the text places on leaving a stage ("通过 review-gate 前 ..."), keyed by that stage. */
  exit: Map<string, GuardCall[]>;
  /** Preconditions whose text names nothing the core can check; they need the user's word. */
  manual: string[];
}

const SPEC_PATH = /specs\/<date\+feature>\/([\w.\-/]+)/g;
const PASSES = /结论为\s*(?:PASS|通过)|验证通过|判定为通过/i;

/**
 * loom's pipeline.schema.json states preconditions in prose (`check`). The prose is regular —
 * spec paths followed by qualifiers such as "存在且结论为 PASS" — so it is compiled into named
 * guards here. A precondition that names nothing checkable is kept as a manual one, which the
 * user must confirm: it is never silently passed.
 */
export function compilePrecondition(p: Precondition): CompiledPrecondition {
  const text = `${p.check ?? ''} ${p.description ?? ''}`;
  const check = p.check ?? p.description ?? '';
  const out: CompiledPrecondition = { enter: [], exit: new Map(), manual: [] };
  const paths = [...check.matchAll(SPEC_PATH)].map((m) => specRelative(m[1]));
  const exitOf = /通过\s*([\w-]+)\s*前/.exec(check)?.[1];
  const target: GuardCall[] = [];

  for (const path of paths) target.push(guard('fileExists', { path }));
  const last = paths[paths.length - 1];
  if (last && PASSES.test(check)) {
    if (last === 'artifact-analysis.json') target.push(guard('analysisHasNoBlocker', {}));
    else if (last === 'review-feedback.md') target.push(guard('reviewFeedbackPasses', {}));
    else if (last.endsWith('.md')) target.push(guard('reportPasses', { path: last }));
  }
  if (/状态为\s*converged/i.test(check)) target.push(guard('convergenceConverged', {}));
  if (/闭环/.test(check)) target.push(guard('traceabilityClosed', {}));

  if (p.type === 'git' && /worktree/i.test(text)) target.push(guard('worktreeExists', {}));
  if (/reviewer/i.test(text) && /通过|PASS/i.test(text)) target.push(guard('reviewerPassed', {}));
  if (p.type === 'review' && /verification/i.test(check) && /PASS|通过/i.test(check)) {
    target.push(guard('reportPasses', { path: 'verify-report.md' }));
  }
  if (p.type === 'test' && /exit\s*code\s*0/i.test(check)) target.push(guard('testsExitZero', {}));

  if (exitOf) out.exit.set(exitOf, target);
  else out.enter.push(...target);
  // "input" preconditions (the user's own description of the need) are met by starting the spec.
  if (target.length === 0 && p.type !== 'input') out.manual.push(p.description ?? check);
  return out;
}
