/**
 * The webview's side of the VS Code API, typed with the shared protocol. `acquireVsCodeApi` may
 * be called only once per page, so every module goes through this one instance.
 */
import { LANGUAGE_TAGS, setDisplayLanguage } from '../../src/shared/messages/language';
import type { HostMessage, PersistedViewState, ViewKind, WebviewMessage } from '../../src/shared/protocol';

interface VsCodeApi<S> {
  postMessage(message: WebviewMessage): void;
  getState(): S | undefined;
  setState(state: S): S;
}

declare function acquireVsCodeApi<S = unknown>(): VsCodeApi<S>;

const api = acquireVsCodeApi<PersistedViewState>();

export function post(message: WebviewMessage): void {
  api.postMessage(message);
}

/** The UI details saved for this view, if they belong to it (a stale state from another view is ignored). */
export function savedUi<UI>(view: ViewKind): { specDir?: string; ui?: Partial<UI> } {
  const state = api.getState();
  if (!state || state.view !== view) return {};
  return { specDir: state.specDir, ui: (state.ui ?? undefined) as Partial<UI> | undefined };
}

/** Saves UI details only (scroll, selection, filters); the host restores the panel from `specDir`. */
export function saveUi<UI>(view: ViewKind, specDir: string, ui: UI): void {
  api.setState({ view, specDir, ui });
}

/** Host messages, with a shape check: anything else arriving on `message` is ignored. */
export function onHostMessage<V extends ViewKind>(view: V, handler: (message: HostMessage<V>) => void): void {
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    const data = event.data as Partial<HostMessage> | null;
    if (!data || typeof data !== 'object') return;
    if (data.type === 'unavailable' && typeof data.message === 'string') handler(data as HostMessage<V>);
    else if ((data.type === 'init' || data.type === 'update') && data.model && data.model.kind === view) {
      // The page's own labels follow the host's language; an older host without one reads English.
      const language = data.language === 'zh' ? 'zh' : 'en';
      setDisplayLanguage(language);
      document.documentElement.lang = LANGUAGE_TAGS[language];
      handler(data as HostMessage<V>);
    }
  });
}
