import type { OpenFileMessage } from '../../src/shared/protocol';
import { h, type Child } from './dom';
import { post } from './vscodeApi';

/**
 * A reference the user can follow: a real link that posts `openFile` (the host opens the editor).
 * `href="#"` keeps it focusable and announced as a link; the default navigation is cancelled.
 */
export function fileLink(target: Omit<OpenFileMessage, 'type'>, label: Child, title?: string): HTMLAnchorElement {
  return h(
    'a',
    {
      className: 'file-link',
      attrs: { href: '#', title: title ?? target.path + (target.line ? `:${target.line}` : '') + (target.testName ? ` › ${target.testName}` : '') },
      on: {
        click: (e) => {
          e.preventDefault();
          openFile(target);
        },
      },
    },
    label,
  );
}

export function openFile(target: Omit<OpenFileMessage, 'type'>): void {
  post({ type: 'openFile', path: target.path, ...(target.line ? { line: target.line } : {}), ...(target.testName ? { testName: target.testName } : {}) });
}
