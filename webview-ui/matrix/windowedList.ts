/**
 * A windowed list: `count` rows of one fixed height inside a scrolling viewport, of which only
 * the visible ones (plus `overscan` above and below) exist in the DOM. A 5,000-row ledger then
 * costs the same to show and scroll as a 50-row one.
 *
 * Rows are positioned with `transform` set through CSSOM, which the CSP allows (an inline
 * `style` attribute would not be).
 */
export interface WindowedListOptions {
  /** The element that scrolls. */
  viewport: HTMLElement;
  /** Inside the viewport: sized to the full list, holds the rendered rows. */
  body: HTMLElement;
  rowHeight: number;
  overscan?: number;
  /** Height of anything sticky above the rows inside the viewport (the column header). */
  stickyTop?: () => number;
  /** Height of an overlay pinned over the first rows (the current group's header), which hides what is under it. */
  pinnedHeight?: number;
  renderRow(index: number): HTMLElement;
  /** Called after each render with the first visible index, e.g. to pin a group header. */
  onRender?(firstVisible: number): void;
}

export class WindowedList {
  private count = 0;
  private readonly rendered = new Map<number, HTMLElement>();
  private frame = 0;

  constructor(private readonly o: WindowedListOptions) {
    o.viewport.addEventListener('scroll', () => this.schedule(), { passive: true });
    new ResizeObserver(() => this.schedule()).observe(o.viewport);
  }

  /** New data: every row is rendered again from `renderRow`. */
  setCount(count: number): void {
    this.count = count;
    this.o.body.style.height = `${count * this.o.rowHeight}px`;
    for (const el of this.rendered.values()) el.remove();
    this.rendered.clear();
    this.render();
  }

  /** Re-renders the rows in the DOM (e.g. the selection moved), without rebuilding the list. */
  refresh(indices?: Iterable<number>): void {
    const which = indices ? [...indices] : [...this.rendered.keys()];
    for (const i of which) {
      const old = this.rendered.get(i);
      if (!old) continue;
      const el = this.place(this.o.renderRow(i), i);
      old.replaceWith(el);
      this.rendered.set(i, el);
    }
  }

  get size(): number {
    return this.count;
  }

  private stickyTop(): number {
    return this.o.stickyTop?.() ?? 0;
  }

  /** The range of rows visible now. */
  visibleRange(): { first: number; last: number } {
    const { viewport, rowHeight } = this.o;
    const top = Math.max(0, viewport.scrollTop);
    const height = Math.max(0, viewport.clientHeight - this.stickyTop());
    const first = Math.min(this.count - 1, Math.floor(top / rowHeight));
    const last = Math.min(this.count - 1, Math.ceil((top + height) / rowHeight) - 1);
    return { first: Math.max(0, first), last: Math.max(0, last) };
  }

  /** Scrolls just enough to show row `index` below the sticky header. */
  scrollIntoView(index: number): void {
    const { viewport, rowHeight } = this.o;
    const top = index * rowHeight;
    const visible = viewport.clientHeight - this.stickyTop();
    const hidden = this.o.pinnedHeight ?? 0;
    if (top < viewport.scrollTop + hidden) viewport.scrollTop = Math.max(0, top - hidden);
    else if (top + rowHeight > viewport.scrollTop + visible) viewport.scrollTop = top + rowHeight - visible;
    this.render();
  }

  /** Rows per page, for PageUp / PageDown. */
  pageSize(): number {
    return Math.max(1, Math.floor((this.o.viewport.clientHeight - this.stickyTop()) / this.o.rowHeight) - 1);
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  /** Adds the rows that came into view and removes those that left; rows still in view are kept. */
  render(): void {
    if (this.frame) {
      cancelAnimationFrame(this.frame);
      this.frame = 0;
    }
    const overscan = this.o.overscan ?? 8;
    if (this.count === 0) {
      this.o.onRender?.(-1);
      return;
    }
    const { first, last } = this.visibleRange();
    const from = Math.max(0, first - overscan);
    const to = Math.min(this.count - 1, last + overscan);
    for (const [i, el] of this.rendered) {
      if (i < from || i > to) {
        el.remove();
        this.rendered.delete(i);
      }
    }
    const fragment = document.createDocumentFragment();
    for (let i = from; i <= to; i++) {
      if (this.rendered.has(i)) continue;
      const el = this.place(this.o.renderRow(i), i);
      this.rendered.set(i, el);
      fragment.appendChild(el);
    }
    this.o.body.appendChild(fragment);
    this.o.onRender?.(first);
  }

  private place(el: HTMLElement, index: number): HTMLElement {
    el.style.transform = `translateY(${index * this.o.rowHeight}px)`;
    return el;
  }
}
