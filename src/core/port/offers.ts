/**
 * What a spec offers a person (Advance, Approve, Approve Again, Create Worktree, Run Tasks,
 * Verify, Answer Review, Sync, Run Pipeline), derived once from the rules the spec's actor
 * decides by: the tree, the dashboard, the webview and `@loom` render it and decide nothing.
 */
export { specOffers, reviewFixesToAnswer, type OfferFacts, type SpecOffers } from '../pipeline/specOffers';
