/**
 * Which rows of the Loom tree are open, as the person left them. No `vscode` import: the rules
 * are tested in plain Node, and the provider maps them to TreeItemCollapsibleState.
 *
 * VS Code forgets open rows when the side bar is hidden and shown again (Ctrl+B) and the tree is
 * redrawn, so the provider hands them back as open. Only what the person opened is handed back:
 * VS Code also reports a row as expanded when it opens it itself (a row drawn without children
 * that gets some — a stage whose handoff or outputs appear while Run Pipeline goes through it),
 * and handing those back as open would open every stage a run passed through, in every spec.
 */
export type RowShape = 'leaf' | 'collapsed' | 'expanded';

export class TreeExpansion {
  private readonly open = new Set<string>();
  /** How each row was last drawn: a row drawn as a leaf had no twistie for the person to click. */
  private readonly drawn = new Map<string, RowShape>();

  /**
   * The shape to draw a row with: `shape` as its item says (a leaf, or collapsed or expanded by
   * default), opened when the person opened it.
   */
  shape(id: string, shape: RowShape): RowShape {
    const out = shape === 'collapsed' && this.open.has(id) ? 'expanded' : shape;
    this.drawn.set(id, out);
    return out;
  }

  /** The view's expand and collapse events. */
  expanded(id: string, isOpen: boolean): void {
    if (!isOpen) {
      this.open.delete(id);
      return;
    }
    // A row the view last had as a leaf, or never had, was opened by VS Code, not by the person.
    const drawn = this.drawn.get(id);
    if (drawn === undefined || drawn === 'leaf') return;
    this.open.add(id);
  }

  isOpen(id: string): boolean {
    return this.open.has(id);
  }
}
