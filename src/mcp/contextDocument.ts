/** loom's context documents by key (context-index.js DOC_KEYS). */
export const CONTEXT_DOCS = new Map([
  ['constitution', '.loom/rules/constitution.md'],
  ['memory', '.loom/memory/MEMORY.md'],
]);

export interface ContextSection {
  title: string;
  content: string;
}

/** loom's rough token size: characters / 3. */
export const tokensOf = (text: string) => Math.ceil(text.length / 3);

/**
 * The `##` sections of a Markdown document, each with its text up to the next `##` heading.
 * A heading inside a fenced code block is text, not a section. Line-based on purpose: loom's
 * context index splits the same way, and a Markdown parser would add nothing for `##` lines.
 */
export function sectionsOf(text: string): ContextSection[] {
  const sections: { title: string; lines: string[] }[] = [];
  let fence: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (!fence || marker.startsWith(fence))) fence = fence ? undefined : marker;
    const heading = fence === undefined ? /^##\s+(.+?)\s*#*\s*$/.exec(line) : null;
    if (heading) sections.push({ title: heading[1], lines: [] });
    else sections.at(-1)?.lines.push(line);
  }
  return sections.map((s) => ({ title: s.title, content: s.lines.join('\n').trim() }));
}
