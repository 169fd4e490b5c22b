import type { DashboardModel } from '../../src/shared/dashboardModel';

/**
 * The one button of the page drawn as primary: what moves the spec on now, in the order a person
 * would take it (a stopped run's own action, a breaker's choice, an approval to renew, a recovery,
 * Verify, Answer Review, Approve, Advance once ready, else Run Pipeline). Every other button is
 * secondary, so the page never offers two main ways at once (VS Code's guidelines: one primary
 * action per view).
 */
export function primaryKey(m: DashboardModel): string | undefined {
  const run = m.run;
  if (run && !run.running && run.action) return 'run-continue';
  const breaker = m.tasks.find((t) => t.breaker && !t.breaker.chosen && t.breaker.choices.length);
  if (breaker?.breaker) return `breaker-${breaker.id}-${breaker.breaker.choices[0].choice}`;
  const a = m.actions;
  if (a.reapprove.length) return `reapprove-${a.reapprove[0]}`;
  const recover = m.next.find((t) => t.kind === 'recover' && t.ready);
  if (recover) return `recover-${recover.to}`;
  if (a.verify) return 'verify';
  if (a.answerReview) return 'answer-review';
  if (a.approve) return 'approve';
  const forward = m.next.find((t) => t.kind === 'forward');
  if (a.advance && (forward?.ready || run)) return 'advance';
  if (a.advance) return 'run-pipeline';
  return undefined;
}

/** Draws every command button but the primary one as secondary. */
export function keepOnePrimary(root: HTMLElement, m: DashboardModel): void {
  const primary = primaryKey(m);
  for (const button of root.querySelectorAll<HTMLElement>('vscode-button')) {
    if (button.dataset.key === primary) button.removeAttribute('secondary');
    else button.setAttribute('secondary', '');
  }
}
