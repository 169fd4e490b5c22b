/** The middle value; of an even count, the mean of the two middle ones (not the upper one). */
export function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The lowest and highest value, `min-max`: how far the samples behind a median spread. */
export function spread(xs: readonly number[]): string {
  return xs.length ? `${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)}` : 'NaN';
}
