/**
 * Says "the view now shows the latest model": a `loom:rendered` DOM event and a performance
 * mark. Browser tests and the benchmark wait on it instead of guessing with timeouts.
 */
export function announceRendered(view: string, detail: Record<string, number>): void {
  performance.mark(`loom:${view}:rendered`);
  document.dispatchEvent(new CustomEvent('loom:rendered', { detail: { view, ...detail } }));
}
