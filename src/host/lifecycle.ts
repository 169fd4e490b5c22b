import * as vscode from 'vscode';

/**
 * Base for classes that own emitters, watchers, timers or actors: everything handed to
 * `_register` is disposed with the owner, in reverse order.
 */
export abstract class Disposable implements vscode.Disposable {
  private readonly owned: vscode.Disposable[] = [];
  private disposed = false;

  protected get isDisposed(): boolean {
    return this.disposed;
  }

  protected _register<T extends vscode.Disposable>(d: T): T {
    if (this.disposed) d.dispose();
    else this.owned.push(d);
    return d;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const d of this.owned.splice(0).reverse()) {
      try {
        d.dispose();
      } catch {
        // One failing disposal must not keep the others alive.
      }
    }
  }
}

/** A disposable that runs `fn` once. */
export const toDisposable = (fn: () => void): vscode.Disposable => new vscode.Disposable(fn);
