import type { MatrixModel, MatrixRequirement, MatrixRow } from '../../src/shared/matrixModel';

/** One line of the windowed list: a requirement's header, or one of its behaviors. */
export type MatrixItem = { kind: 'requirement'; requirement: MatrixRequirement; shown: number; shownClosed: number; group: number } | { kind: 'behavior'; row: MatrixRow; group: number };

/** A requirement's header at `item`, over `rows[start..end)` of the list's rows. */
interface Group {
  requirement: MatrixRequirement;
  item: number;
  start: number;
  end: number;
}

/**
 * The grid's lines, made on demand: a requirement header, then its behaviors, in the model's
 * order. Only the lines in view are ever asked for, so a 5,000-behavior ledger costs the grid
 * one pass to find where each requirement's rows start, not 5,500 objects up front.
 */
export class MatrixItems {
  static readonly EMPTY = new MatrixItems([], []);

  private constructor(
    private readonly rows: readonly MatrixRow[],
    private readonly groups: readonly Group[],
  ) {}

  get length(): number {
    const last = this.groups[this.groups.length - 1];
    return last ? last.item + 1 + (last.end - last.start) : 0;
  }

  at(index: number): MatrixItem | undefined {
    const g = this.groupAt(index);
    if (g < 0) return undefined;
    const group = this.groups[g];
    if (index === group.item) {
      let shownClosed = 0;
      for (let i = group.start; i < group.end; i++) if (this.rows[i].closed) shownClosed++;
      return { kind: 'requirement', requirement: group.requirement, shown: group.end - group.start, shownClosed, group: group.item };
    }
    return { kind: 'behavior', row: this.rows[group.start + index - group.item - 1], group: group.item };
  }

  /** The line showing `behavior`, or -1 when it is not shown. */
  indexOfBehavior(behavior: string): number {
    for (const group of this.groups) {
      for (let i = group.start; i < group.end; i++) if (this.rows[i].behavior === behavior) return group.item + 1 + i - group.start;
    }
    return -1;
  }

  /** The group holding line `index` (binary search over the headers' lines), or -1 outside the list. */
  private groupAt(index: number): number {
    if (!Number.isInteger(index) || index < 0 || index >= this.length) return -1;
    let lo = 0;
    let hi = this.groups.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.groups[mid].item <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /**
   * Groups the shown rows under their requirement, in the order of the model's requirements. A
   * requirement whose behaviors are all filtered out disappears; one with no behaviors at all keeps
   * its header when nothing is filtered, since its missing categories are a gap of their own. The
   * host sends rows in requirement order, and they are used as they are; rows out of that order
   * are regrouped once.
   */
  static of(model: MatrixModel, shown: readonly MatrixRow[], filtered: boolean): MatrixItems {
    const order = requirementOrder(model, shown);
    let rows = shown;
    let found = runs(rows);
    if (!found || !follows(found, order)) {
      rows = regroup(rows, order);
      found = runs(rows)!;
    }
    const groups: Group[] = [];
    let item = 0;
    for (const requirement of order) {
      const run = found.get(requirement.id);
      if (!run && (filtered || requirement.behaviors !== 0)) continue;
      const { start, end } = run ?? { start: 0, end: 0 };
      groups.push({ requirement, item, start, end });
      item += 1 + end - start;
    }
    return new MatrixItems(rows, groups);
  }
}

/** The model's requirements, each once, then any the rows name that the coverage list does not know (should not happen: still shown). */
function requirementOrder(model: MatrixModel, rows: readonly MatrixRow[]): MatrixRequirement[] {
  const order = new Map<string, MatrixRequirement>();
  for (const r of model.requirements) if (!order.has(r.id)) order.set(r.id, r);
  const unknown = new Map<string, number>();
  for (const row of rows) if (!order.has(row.requirement)) unknown.set(row.requirement, (unknown.get(row.requirement) ?? 0) + 1);
  for (const [id, behaviors] of unknown) order.set(id, { id, requiredCategories: [], coveredCategories: [], missingCategories: [], behaviors, closed: 0 });
  return [...order.values()];
}

/** Where each requirement's rows are, if each requirement's rows are side by side; undefined otherwise. */
function runs(rows: readonly MatrixRow[]): Map<string, { start: number; end: number }> | undefined {
  const found = new Map<string, { start: number; end: number }>();
  for (let start = 0; start < rows.length;) {
    const id = rows[start].requirement;
    let end = start + 1;
    while (end < rows.length && rows[end].requirement === id) end++;
    if (found.has(id)) return undefined;
    found.set(id, { start, end });
    start = end;
  }
  return found;
}

/** Whether the runs come in the requirements' order. */
function follows(found: Map<string, { start: number; end: number }>, order: readonly MatrixRequirement[]): boolean {
  let at = 0;
  for (const r of order) {
    const run = found.get(r.id);
    if (!run) continue;
    if (run.start !== at) return false;
    at = run.end;
  }
  return true;
}

function regroup(rows: readonly MatrixRow[], order: readonly MatrixRequirement[]): MatrixRow[] {
  const byRequirement = new Map<string, MatrixRow[]>();
  for (const r of rows) {
    const list = byRequirement.get(r.requirement);
    if (list) list.push(r);
    else byRequirement.set(r.requirement, [r]);
  }
  return order.flatMap((r) => byRequirement.get(r.id) ?? []);
}
