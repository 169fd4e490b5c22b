import { gitOutput } from '../git/gitCommand';
import { t, type Language } from '../messages';
import type { HandOnPlan } from './branchHandOn';

/** What git says about the hand-on's two names: the feature branch and the remote it is pushed to. */
export interface HandOnReadiness {
  branchExists: boolean;
  remoteExists: boolean;
}

/**
 * Whether the branch and the remote the commands name exist, asked of git where the commands run.
 * A git that cannot answer (no repository) reads as neither there: the words then say what to make.
 */
export async function handOnReadiness(plan: HandOnPlan, cwd: string): Promise<HandOnReadiness> {
  const ask = async (args: string[]) => {
    try {
      return (await gitOutput(cwd, args)).code === 0;
    } catch {
      return false;
    }
  };
  const [branchExists, remoteExists] = await Promise.all([ask(['rev-parse', '--verify', '--quiet', `refs/heads/${plan.branch}`]), ask(['remote', 'get-url', plan.remote])]);
  return { branchExists, remoteExists };
}

/**
 * The hand-on's commands as a person reads them: first what must exist before they can work (the
 * branch, the remote), then each command under the line that says what it does.
 */
export function handOnLines(plan: HandOnPlan, readiness: HandOnReadiness, language: Language): string[] {
  const [push, pr] = plan.commands;
  return [...handOnMissing(plan, readiness, language), t('handOn.pushStep', {}, language), `  ${push}`, t('handOn.prStep', {}, language), `  ${pr}`];
}

/** What must be made before the commands can work, in a sentence each (empty when both names exist). */
export function handOnMissing(plan: HandOnPlan, readiness: HandOnReadiness, language: Language): string[] {
  return [...(readiness.branchExists ? [] : [t('handOn.noBranch', { branch: plan.branch }, language)]), ...(readiness.remoteExists ? [] : [t('handOn.noRemote', { remote: plan.remote }, language)])];
}
