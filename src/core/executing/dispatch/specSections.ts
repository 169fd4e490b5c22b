/**
 * Loom's context rule: a subagent gets only the spec sections it needs. A section is needed
 * when it names one of the task's requirement or behavior ids; the spec's title and the text
 * under it always come along for orientation. A spec that names none of the ids is given whole
 * (up to the limit), since then nothing tells which part matters.
 */
interface Section {
  heading: string;
  level: number;
  text: string;
}

function splitSections(spec: string): Section[] {
  const out: Section[] = [];
  let current: Section = { heading: '', level: 0, text: '' };
  for (const line of spec.split(/\r?\n/)) {
    const h = /^(#{1,6})\s+/.exec(line);
    if (h) {
      if (current.text.trim() || current.heading) out.push(current);
      current = { heading: line, level: h[1].length, text: `${line}\n` };
    } else current.text += `${line}\n`;
  }
  if (current.text.trim() || current.heading) out.push(current);
  return out;
}

const mentions = (text: string, ids: readonly string[]) => ids.some((id) => new RegExp(`\\b${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(text));

export function relevantSpecSections(spec: string, ids: readonly string[], maxChars = 12000): string {
  const sections = splitSections(spec);
  if (sections.length === 0) return '';
  // The opening (the title with the text under it) always comes along.
  const picked = new Set<number>([0]);
  let matched = false;
  sections.forEach((s, i) => {
    if (i > 0 && mentions(s.text, ids)) {
      picked.add(i);
      matched = true;
      // A matching subsection brings its parent heading along, so the model sees where it sits.
      for (let j = i - 1; j > 0; j--) {
        if (sections[j].level < s.level) {
          picked.add(j);
          break;
        }
      }
    }
  });
  const chosen = matched ? [...picked].sort((a, b) => a - b).map((i) => sections[i].text) : sections.map((s) => s.text);
  return clip(chosen.join('').trim(), maxChars);
}

export function clip(text: string, maxChars: number, note = '\n… (truncated; read the file for the rest)'): string {
  return text.length <= maxChars ? text : `${text.slice(0, maxChars)}${note}`;
}
