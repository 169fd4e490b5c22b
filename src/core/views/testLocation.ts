/**
 * Where a named test is in a test file, so "open the test" lands on it. The name comes from
 * traceability.json (`file#name`, `file::Class::name`), so it is matched as plain text, never as
 * a regular expression.
 */

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Candidate spellings of the name: as written, then its last `::` / `#` / ` > ` segment. */
function candidates(testName: string): string[] {
  const name = testName.trim();
  const last = name
    .split(/::|#| > /)
    .map((s) => s.trim())
    .filter(Boolean)
    .pop();
  return [...new Set([name, ...(last ? [last] : [])])].filter(Boolean);
}

/** The declaration patterns of the test frameworks loom's specs use. */
function declarations(name: string): RegExp[] {
  const n = escapeRegExp(name);
  return [
    // JS/TS: test('name', it("name", describe(`name`, test.only('name', it.each(...)('name'
    new RegExp(`\\b(?:test|it|describe|suite|context)(?:\\.\\w+)*(?:\\([^)]*\\))?\\s*\\(\\s*(['"\`])${n}\\1`),
    // Python and Go: def test_name(, func TestName(
    new RegExp(`\\b(?:async\\s+)?def\\s+${n}\\s*\\(`),
    new RegExp(`\\bfunc\\s+${n}\\s*\\(`),
    // Python classes named in `file::TestClass::test`
    new RegExp(`\\bclass\\s+${n}\\b`),
  ];
}

/**
 * The 1-based line of the test named `testName` in `text`: a test/it/describe, `def`, `func` or
 * `class` declaration of that name, else the first line that mentions it; undefined when the
 * name does not occur at all.
 */
export function findTestLine(text: string, testName: string): number | undefined {
  const lines = text.split(/\r?\n/);
  const names = candidates(testName);
  for (const name of names) {
    const patterns = declarations(name);
    const i = lines.findIndex((l) => patterns.some((p) => p.test(l)));
    if (i >= 0) return i + 1;
  }
  for (const name of names) {
    const i = lines.findIndex((l) => l.includes(name));
    if (i >= 0) return i + 1;
  }
  return undefined;
}
