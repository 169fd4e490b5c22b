/**
 * What a read of a spec knows beyond its files' parse (the feature's worktree in git, the review's
 * threads, review-feedback.md's sha256): found the first time a guard, a refusal or an offer asks,
 * then kept with that read. A request reads the spec once (SpecPipeline.request), so each is read
 * from the disk once per request, and every guard of it decides from the same fact; the next read
 * of the spec finds it again.
 */
const found = new WeakMap<object, Map<string, unknown>>();

export function snapshotFact<T>(snapshot: object, name: string, find: () => T): T {
  let facts = found.get(snapshot);
  if (!facts) found.set(snapshot, (facts = new Map()));
  if (facts.has(name)) return facts.get(name) as T;
  const value = find();
  facts.set(name, value);
  return value;
}
