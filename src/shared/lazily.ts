/**
 * A value made on its first use and kept. VS Code runs the top level of every module in the
 * extension's bundle before `activate()`, and activation has a budget (issue #15: at most 50 ms
 * more than an empty extension). zod schemas, state machines and libraries that activation does
 * not use are therefore made through this instead of when their module loads.
 */
export function lazily<T>(make: () => T): () => T {
  let made: { readonly value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
