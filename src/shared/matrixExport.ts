/**
 * The traceability matrix as CSV or Markdown, from the same rows the webview shows. Pure: the
 * host writes the result wherever the user chose.
 */
import { refExists, taskFile, type MatrixFileRef, type MatrixModel, type MatrixRow } from './matrixModel';

export const EXPORT_COLUMNS = ['requirement', 'behavior', 'category', 'status', 'description', 'tasks', 'tests', 'evidence', 'closed', 'gaps'] as const;

const taskText = (model: Pick<MatrixModel, 'taskFiles'>, id: string) => (taskFile(model, id) !== undefined ? id : `${id} (no task file)`);
const REASON_TEXT = { missing: 'missing', 'outside-evidence': 'outside evidence/', 'only-in-worktree': 'only in the feature worktree' } as const;
const fileText = (f: MatrixFileRef) => (refExists(f) ? f.ref : `${f.ref} (${REASON_TEXT[f.reason ?? 'missing']})`);

/** One row as text cells, in EXPORT_COLUMNS order; lists are joined with "; ". */
export function exportCells(model: Pick<MatrixModel, 'taskFiles'>, row: MatrixRow, closed: (c: boolean) => string): string[] {
  return [
    row.requirement,
    row.behavior,
    row.category,
    row.status,
    row.description,
    row.tasks.map((id) => taskText(model, id)).join('; '),
    row.tests.map(fileText).join('; '),
    row.evidence.map(fileText).join('; '),
    closed(row.closed),
    row.gaps.join('; '),
  ];
}

/** Only the rows whose behavior is listed, in the model's order (the filtered view). */
export function selectRows(model: MatrixModel, behaviors?: readonly string[]): MatrixRow[] {
  if (!behaviors) return model.rows;
  const wanted = new Set(behaviors);
  return model.rows.filter((r) => wanted.has(r.behavior));
}

/**
 * A spreadsheet opening the file must not run a cell as a formula: a cell that starts with
 * `=`, `+`, `-`, `@`, tab or carriage return gets a leading `'` (OWASP's advice).
 */
export function neutralizeFormula(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}

/** RFC 4180: quote a cell holding a quote, comma or line break, doubling its quotes. */
export function csvCell(raw: string): string {
  const cell = neutralizeFormula(raw);
  return /[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

export interface CsvOptions {
  /** Start with a UTF-8 byte-order mark, so Excel reads non-ASCII text (loom writes Chinese) correctly. */
  bom?: boolean;
}

export function matrixToCsv(model: MatrixModel, behaviors?: readonly string[], options: CsvOptions = {}): string {
  const lines = [EXPORT_COLUMNS.join(',')];
  for (const row of selectRows(model, behaviors))
    lines.push(
      exportCells(model, row, (c) => (c ? 'yes' : 'no'))
        .map(csvCell)
        .join(','),
    );
  return `${options.bom ? '\uFEFF' : ''}${lines.join('\r\n')}\r\n`;
}

/** A table cell: no line breaks, no pipes, no raw HTML. */
export function markdownCell(raw: string): string {
  return raw
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r\n|\r|\n/g, '<br>')
    .trim();
}

/** One section per requirement (with its uncovered required categories), then its behaviors. */
export function matrixToMarkdown(model: MatrixModel, behaviors?: readonly string[]): string {
  const rows = selectRows(model, behaviors);
  const closed = rows.filter((r) => r.closed).length;
  const out = [`# Traceability matrix: ${markdownCell(model.specName)}`, '', `${rows.length} behaviors, ${closed} closed.`, ''];
  const header = EXPORT_COLUMNS.filter((c) => c !== 'requirement');
  const byRequirement = new Map<string, MatrixRow[]>();
  for (const r of rows) {
    const list = byRequirement.get(r.requirement);
    if (list) list.push(r);
    else byRequirement.set(r.requirement, [r]);
  }
  const coverage = new Map(model.requirements.map((r) => [r.id, r]));
  for (const [id, list] of byRequirement) {
    out.push(`## ${markdownCell(id)}`, '');
    const missing = coverage.get(id)?.missingCategories ?? [];
    if (missing.length) out.push(`Required categories with no behavior: ${missing.map(markdownCell).join(', ')}`, '');
    out.push(`| ${header.join(' | ')} |`, `|${header.map(() => ' --- ').join('|')}|`);
    for (const row of list)
      out.push(
        `| ${exportCells(model, row, (c) => (c ? '✅' : '❌'))
          .slice(1)
          .map(markdownCell)
          .join(' | ')} |`,
      );
    out.push('');
  }
  return out.join('\n');
}
