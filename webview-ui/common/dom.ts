/**
 * Builds DOM nodes without innerHTML: text from loom's files is always set as text, so a task
 * title can never become markup, and nothing needs an inline style or event attribute (the CSP
 * forbids both).
 */
export type Child = Node | string | number | null | undefined | false;

export interface Props {
  className?: string;
  /** Plain attributes (aria-*, role, data-*, title, ...); `undefined` leaves one out. */
  attrs?: Record<string, string | number | boolean | undefined>;
  on?: { [K in keyof HTMLElementEventMap]?: (event: HTMLElementEventMap[K]) => void };
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props?: Props | null, ...children: Child[]): HTMLElementTagNameMap[K];
export function h(tag: string, props?: Props | null, ...children: Child[]): HTMLElement;
export function h(tag: string, props: Props | null = null, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  if (props?.className) el.className = props.className;
  for (const [k, v] of Object.entries(props?.attrs ?? {})) {
    if (v === undefined || v === false) continue;
    el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const [type, listener] of Object.entries(props?.on ?? {})) el.addEventListener(type, listener as EventListener);
  append(el, children);
  return el;
}

export function append(parent: Node, children: readonly Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    parent.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

/** Replaces every child of `parent`. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}
