import { reviewFixesToAnswer, type OfferFacts } from '../../core/port/offers';

/**
 * `@loom /respond`: where the actor would run the review's fix round (its BLOCKERs, its open code
 * threads), the fixes go to the implementer through Loom: Answer Review rather than a draft
 * saying they will be; elsewhere the response is drafted. The actor's own rule, asked, not
 * decided here (no `vscode`: the parity test reads it in plain Node).
 */
export function respondAnswersReview(spec: Pick<OfferFacts, 'definition' | 'snapshot' | 'stage'>): boolean {
  return reviewFixesToAnswer(spec.definition, spec.snapshot, spec.stage);
}
