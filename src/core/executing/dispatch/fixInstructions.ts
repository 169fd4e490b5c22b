import { t, type Language } from '../../messages';

/**
 * Loom's structured fix instructions: a section `## 修复指令` with items `### 修复项 N`, each
 * giving 问题 / 文件 / 位置 / 严重度 / 修复方向; the English prompts use `## Fix instructions`,
 * `### Fix item N` with Problem / File / Location / Severity / Direction.
 */
export interface FixItem {
  problem: string;
  file?: string;
  location?: string;
  severity?: string;
  direction?: string;
}

type Field = keyof FixItem;

const FIELD_NAMES: ReadonlyArray<[RegExp, Field]> = [
  [/^(问题|problem|issue)$/i, 'problem'],
  [/^(文件|file|files|path)$/i, 'file'],
  [/^(位置|location|line|lines)$/i, 'location'],
  [/^(严重度|严重程度|severity)$/i, 'severity'],
  [/^(修复方向|方向|修复建议|direction|fix|fix direction|suggested fix)$/i, 'direction'],
];

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
// `\b` does not work after CJK characters, hence the explicit look-ahead.
const SECTION = /^(修复指令|fix instructions|fix items|fixes)(?![A-Za-z])/i;
const ITEM = /^(修复项|fix item|item)\s*#?\s*\d*/i;
const FIELD_LINE = /^[\s>]*(?:[-*+]\s+)?[*_`]*([^:：*_`]{1,24}?)[*_`]*\s*[:：]\s*[*_`]*\s*(.*)$/;

function fieldOf(name: string): Field | undefined {
  const n = name.trim();
  return FIELD_NAMES.find(([re]) => re.test(n))?.[1];
}

/** The items of the fix-instruction section, or an empty list when the text has none. */
export function parseFixInstructions(text: string): FixItem[] {
  const lines = text.split(/\r?\n/);
  let sectionLevel = 0;
  const items: FixItem[] = [];
  let current: (Partial<FixItem> & { body: string[] }) | undefined;
  let lastField: Field | undefined;
  const close = () => {
    if (!current) return;
    const { body, ...fields } = current;
    const problem = fields.problem?.trim() || body.join(' ').trim();
    if (problem || fields.file || fields.direction) items.push(clean({ ...fields, problem: problem || '(no problem stated)' }));
    current = undefined;
    lastField = undefined;
  };
  for (const line of lines) {
    const h = HEADING.exec(line);
    if (h) {
      const level = h[1].length;
      const title = h[2].replace(/[*_`]/g, '').trim();
      if (SECTION.test(title)) {
        close();
        sectionLevel = level;
        continue;
      }
      if (sectionLevel && level > sectionLevel && ITEM.test(title)) {
        close();
        current = { body: [] };
        const rest = title
          .replace(ITEM, '')
          .replace(/^[\s:：.\-—]+/, '')
          .trim();
        if (rest) current.problem = rest;
        continue;
      }
      if (sectionLevel && level <= sectionLevel) {
        close();
        sectionLevel = 0;
      }
      continue;
    }
    if (!sectionLevel) continue;
    if (!current) {
      // An item may start without its own heading: a list of fields right under the section.
      if (!line.trim()) continue;
      current = { body: [] };
    }
    const f = FIELD_LINE.exec(line);
    const field = f ? fieldOf(f[1]) : undefined;
    if (f && field) {
      if (field === 'problem' && current.problem && (current.file || current.direction)) {
        close();
        current = { body: [] };
      }
      current[field] = f[2].replace(/[*_`]+$/, '').trim();
      lastField = field;
    } else if (line.trim()) {
      if (lastField) current[lastField] = `${current[lastField] ?? ''} ${line.trim()}`.trim();
      else current.body.push(line.trim().replace(/^[-*+]\s+/, ''));
    }
  }
  close();
  return items;
}

function clean(item: Partial<FixItem> & { problem: string }): FixItem {
  const out: FixItem = { problem: item.problem };
  for (const k of ['file', 'location', 'severity', 'direction'] as const) {
    const v = item[k]?.replace(/^`|`$/g, '').trim();
    if (v) out[k] = v;
  }
  return out;
}

/** Severities that block: loom's BLOCKER, critical, high, and their Chinese names. */
export const isBlocking = (item: FixItem) => /blocker|critical|阻断|严重|致命/i.test(item.severity ?? '');

/** The items in loom's own format, for the fix-mode prompt and the circuit-breaker report. */
export function renderFixInstructions(items: readonly FixItem[], lang: Language): string {
  const out = [t('fixInstructions.heading', {}, lang)];
  items.forEach((item, i) => {
    out.push('', t('fixInstructions.item', { number: i + 1 }, lang));
    out.push(t('fixInstructions.problem', { text: item.problem }, lang));
    if (item.file) out.push(t('fixInstructions.file', { text: item.file }, lang));
    if (item.location) out.push(t('fixInstructions.location', { text: item.location }, lang));
    if (item.severity) out.push(t('fixInstructions.severity', { text: item.severity }, lang));
    if (item.direction) out.push(t('fixInstructions.direction', { text: item.direction }, lang));
  });
  return out.join('\n');
}

/** One line per item, for task states and reports. */
export const summarizeFixItems = (items: readonly FixItem[]) =>
  items.map((i) => `${i.severity ? `[${i.severity}] ` : ''}${i.file ? `${i.file}${i.location ? `:${i.location}` : ''}: ` : ''}${i.problem}`);

/**
 * A reviewer's result or a blocker as a person reads it: the words before the fix instructions
 * (a verdict, a sentence), with markdown heading marks dropped, and the fix items as a list, so a
 * view never shows `## 修复指令` and `### 修复项 1` as literal text.
 */
export function readableReview(text: string): { summary: string; items: FixItem[] } {
  const items = parseFixInstructions(text);
  const lines: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const h = HEADING.exec(line);
    if (h && items.length && SECTION.test(h[2].replace(/[*_`]/g, '').trim())) break;
    const words = (h ? h[2] : line).trim();
    if (words) lines.push(words);
  }
  return { summary: lines.join(' '), items };
}
