import * as vscode from 'vscode';

/**
 * The moments work done outside Loom may have ended: a command ending in a terminal, and the
 * window coming back into focus (another tool, another terminal). A watcher of git's own records
 * looks again then: a `.git` made a moment before its first commit or worktree (`git init`, then
 * `git commit` or `git worktree add`) is not watched yet when git writes them, and no event comes.
 */
export function onWorkMaybeDoneOutside(listener: () => void): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.window.onDidEndTerminalShellExecution(() => listener()),
    vscode.window.onDidChangeWindowState((state) => state.focused && listener()),
  );
}
