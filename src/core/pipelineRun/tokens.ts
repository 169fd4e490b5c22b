/**
 * Estimated tokens of texts sent and received: one token per 4 characters, the rule of thumb the
 * executing ledger uses where a model does not count (the dashboard says "estimated").
 */
export function estimateTokens(texts: readonly string[]): number {
  return texts.reduce((n, text) => n + Math.ceil(text.length / 4), 0);
}
