import type { DashboardModel } from '../../src/shared/dashboardModel';
import type { RunCommandMessage } from '../../src/shared/protocol';
import { tv } from '../../src/shared/messages/viewText';

/** A palette command a button runs through the host (commandButton's), without the spec it is for. */
export type DashboardCommand = RunCommandMessage extends infer M ? (M extends RunCommandMessage ? Omit<M, 'type' | 'specDir'> : never) : never;

/** One button of the next step: the palette command it runs through the host, and how it shows. */
export interface NextStepAction {
  command: DashboardCommand;
  label: string;
  options: { key: string; secondary?: boolean; disabled?: boolean; title?: string };
}

/**
 * The palette's actions of the next step, as the dashboard's model gives them (the core's
 * specOffers, derived once for every surface): Advance, Approve, Check stage (where the stage has
 * validators), Verify, Answer Review, Mark Failed and Approve again for each stale approval. No
 * DOM here: the parity test reads it in plain Node.
 */
export function nextStepActions(m: DashboardModel): NextStepAction[] {
  const forward = m.next.find((t) => t.kind === 'forward');
  const a = m.actions;
  const actions: (NextStepAction | null)[] = [
    a.advance
      ? {
          command: { command: 'advance' },
          label: tv('view.next.advance'),
          options: { key: 'advance', disabled: !forward?.ready, title: forward?.ready ? tv('view.next.moveTo', { stage: forward.to }) : tv('view.next.notYet') },
        }
      : null,
    a.approve ? { command: { command: 'approve' }, label: tv('view.next.approve'), options: { key: 'approve', secondary: true, disabled: !forward?.ready } } : null,
    a.checkStage.length
      ? {
          command: { command: 'checkStage' },
          label: tv('view.next.checkStage'),
          options: { key: 'check-stage', secondary: true, title: tv('view.next.checkStageTitle', { validators: a.checkStage.join(', ') }) },
        }
      : null,
    a.verify ? { command: { command: 'verify' }, label: tv('view.next.verify'), options: { key: 'verify', title: tv('view.next.verifyTitle') } } : null,
    a.answerReview ? { command: { command: 'answerReview' }, label: tv('view.next.answerReview'), options: { key: 'answer-review' } } : null,
    a.markFailed ? { command: { command: 'markFailed' }, label: tv('view.next.markFailed'), options: { key: 'mark-failed', secondary: true } } : null,
    // A stale approval of a gate already passed blocks every way on until it is renewed.
    ...a.reapprove.map((stage) => ({
      command: { command: 'reapprove' as const, args: { stage } },
      label: tv('view.next.reapprove', { stage }),
      options: { key: `reapprove-${stage}`, title: tv('view.next.reapproveTitle', { stage }) },
    })),
  ];
  return actions.filter((x): x is NextStepAction => x !== null);
}
