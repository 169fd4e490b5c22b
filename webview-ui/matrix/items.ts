import type { MatrixModel, MatrixRequirement, MatrixRow } from '../../src/shared/matrixModel';

/** One line of the windowed list: a requirement's header, or one of its behaviors. */
export type MatrixItem = { kind: 'requirement'; requirement: MatrixRequirement; shown: number; shownClosed: number; group: number } | { kind: 'behavior'; row: MatrixRow; group: number };

/**
 * Groups the shown rows under their requirement, in the model's order. A requirement whose
 * behaviors are all filtered out disappears; one with no behaviors at all keeps its header when
 * nothing is filtered, since its missing categories are a gap of their own.
 */
export function toItems(model: MatrixModel, shown: readonly MatrixRow[], filtered: boolean): MatrixItem[] {
  const byRequirement = new Map<string, MatrixRow[]>();
  for (const r of shown) {
    const list = byRequirement.get(r.requirement);
    if (list) list.push(r);
    else byRequirement.set(r.requirement, [r]);
  }
  const items: MatrixItem[] = [];
  const known = new Set<string>();
  const push = (requirement: MatrixRequirement, rows: readonly MatrixRow[]) => {
    const group = items.length;
    let closed = 0;
    for (const r of rows) if (r.closed) closed++;
    items.push({ kind: 'requirement', requirement, shown: rows.length, shownClosed: closed, group });
    for (const row of rows) items.push({ kind: 'behavior', row, group });
  };
  for (const req of model.requirements) {
    known.add(req.id);
    const rows = byRequirement.get(req.id) ?? [];
    if (rows.length > 0 || (!filtered && req.behaviors === 0)) push(req, rows);
  }
  // Rows under a requirement the coverage list does not know (should not happen): still shown.
  for (const [id, rows] of byRequirement) {
    if (!known.has(id)) push({ id, requiredCategories: [], coveredCategories: [], missingCategories: [], behaviors: rows.length, closed: 0 }, rows);
  }
  return items;
}
