/** `tests/a.test.ts#name` and `tests/a_test.py::name` both point at a file plus a test name. */
export function splitTestRef(raw: string): { file: string; name?: string } {
  const ref = raw.trim();
  const colons = ref.indexOf('::');
  const hash = ref.indexOf('#');
  const cut = [colons, hash].filter((n) => n > 0).sort((a, b) => a - b)[0];
  if (cut === undefined) return { file: ref };
  const sep = ref.startsWith('::', cut) ? 2 : 1;
  return { file: ref.slice(0, cut).trim(), name: ref.slice(cut + sep).trim() || undefined };
}
