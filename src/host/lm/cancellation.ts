import * as vscode from 'vscode';

/**
 * Bridges between the core's AbortSignal and VS Code's CancellationToken, both ways. The caller's
 * signal or token is threaded down; nothing here invents a cancellation of its own.
 */
export function tokenFromSignal(signal: AbortSignal): { token: vscode.CancellationToken; dispose(): void } {
  const source = new vscode.CancellationTokenSource();
  const cancel = () => source.cancel();
  if (signal.aborted) source.cancel();
  else signal.addEventListener('abort', cancel, { once: true });
  return {
    token: source.token,
    dispose: () => {
      signal.removeEventListener('abort', cancel);
      source.dispose();
    },
  };
}

/** An AbortSignal that aborts when the token is cancelled (e.g. the Stop button of a progress notification). */
export function signalFromToken(token: vscode.CancellationToken, controller = new AbortController()): { signal: AbortSignal; dispose(): void } {
  if (token.isCancellationRequested) controller.abort();
  const sub = token.onCancellationRequested(() => controller.abort());
  return { signal: controller.signal, dispose: () => sub.dispose() };
}
