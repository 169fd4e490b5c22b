import { BEHAVIOR_ID_PATTERN } from '../../files/vocabulary';

/**
 * What the implementer's reply says beyond its status: a summary, which tests cover which
 * behavior, the interfaces it exported and its concerns. The prompts ask for sections
 * `## Summary` / `## 摘要`, `## Tests` / `## 测试` (lines `- REQ-001-B01: tests/a.test.ts#name`),
 * `## Exported interfaces` / `## 导出接口` (lines `- name | path | signature`) and
 * `## Concerns` / `## 顾虑`. Everything here is a claim: the core checks it against the files
 * before writing anything.
 */
export interface ExportedInterface {
  name: string;
  path: string;
  signature?: string;
}

export interface ImplementerReport {
  summary: string;
  /** Behavior id → test references as written (`file#name` or `file::name`). */
  tests: Map<string, string[]>;
  exportedInterfaces: ExportedInterface[];
  concerns: string;
}

const SECTION_NAMES: ReadonlyArray<[RegExp, keyof Sections]> = [
  [/^(summary|摘要|总结|概要)/i, 'summary'],
  [/^(tests|测试)/i, 'tests'],
  [/^(exported interfaces|exports|导出接口|接口)/i, 'exports'],
  [/^(concerns|顾虑|风险|遗留问题)/i, 'concerns'],
];

interface Sections {
  summary: string[];
  tests: string[];
  exports: string[];
  concerns: string[];
}

function sections(text: string): Sections {
  const out: Sections = { summary: [], tests: [], exports: [], concerns: [] };
  let current: keyof Sections | undefined;
  for (const line of text.split(/\r?\n/)) {
    const h = /^#{1,6}\s+(.*)$/.exec(line);
    if (h) {
      const title = h[1].replace(/[*_`]/g, '').trim();
      current = SECTION_NAMES.find(([re]) => re.test(title))?.[1];
      continue;
    }
    if (current) out[current].push(line);
  }
  return out;
}

const BEHAVIOR_LINE = /^[\s>]*[-*+]?\s*`?(REQ-\d{3,}-B\d{2,})`?\s*(?:->|→|:|：)\s*(.+)$/;
const STATUS_LINE = /^[\s>*_`#-]*(status|状态)\s*[:：]|^[\s>*_`#-]*(DONE_WITH_CONCERNS|NEEDS_CONTEXT|BLOCKED|DONE)\b/i;

function splitRefs(raw: string): string[] {
  return raw
    .split(/\s*[,;，；]\s*(?=`?[\w./@-]+\.[A-Za-z0-9]+)/)
    .map((r) =>
      r
        .trim()
        .replace(/^`|`$/g, '')
        .replace(/^\[|\]$/g, '')
        .trim(),
    )
    .filter((r) => r.length > 0 && /\.[A-Za-z0-9]+/.test(r));
}

export function parseImplementerReport(text: string): ImplementerReport {
  const s = sections(text);
  const tests = new Map<string, string[]>();
  // Behavior lines count anywhere in the reply, not only under a Tests heading.
  for (const line of text.split(/\r?\n/)) {
    const m = BEHAVIOR_LINE.exec(line);
    if (!m || !BEHAVIOR_ID_PATTERN.test(m[1])) continue;
    const refs = splitRefs(m[2]);
    if (refs.length === 0) continue;
    const list = tests.get(m[1]) ?? [];
    for (const r of refs) if (!list.includes(r)) list.push(r);
    tests.set(m[1], list);
  }
  const exportedInterfaces: ExportedInterface[] = [];
  for (const line of s.exports) {
    const cells = line
      .replace(/^[\s>]*[-*+]\s*/, '')
      .split('|')
      .map((c) => c.trim().replace(/^`|`$/g, ''));
    if (cells.length < 2 || !cells[0] || !cells[1] || /^-+$/.test(cells[0]) || /^name$/i.test(cells[0])) continue;
    exportedInterfaces.push({ name: cells[0], path: cells[1], ...(cells[2] ? { signature: cells.slice(2).join(' | ') } : {}) });
  }
  const paragraphText = (lines: string[]) =>
    lines
      .filter((l) => !STATUS_LINE.test(l))
      .join('\n')
      .trim();
  let summary = paragraphText(s.summary);
  if (!summary) {
    // No summary section: the first paragraph that is not a heading or status line.
    summary =
      text
        .split(/\r?\n\s*\r?\n/)
        .map((p) => p.trim())
        .find((p) => p && !p.startsWith('#') && !STATUS_LINE.test(p)) ?? '';
  }
  return { summary: summary.slice(0, 1200), tests, exportedInterfaces, concerns: paragraphText(s.concerns).slice(0, 2000) };
}
