import * as vscode from 'vscode';
import type { HostUserPrompts } from './hostPrompts';

/** The `when`-clause context key the tree's Stop Tasks menu item waits for. */
const RUNNING_KEY = 'loom.tasksRunning';

/** One running executing loop: how to stop it and how to answer its questions. */
export interface RunningLoop {
  specDir: string;
  controller: AbortController;
  prompts: HostUserPrompts;
}

/** The executing loops running in this window, one per spec at most. */
export class RunningLoops {
  private readonly loops = new Map<string, RunningLoop>();

  get(specDir: string): RunningLoop | undefined {
    return this.loops.get(specDir);
  }

  all(): RunningLoop[] {
    return [...this.loops.values()];
  }

  add(loop: RunningLoop): void {
    this.loops.set(loop.specDir, loop);
    this.publish();
  }

  remove(loop: RunningLoop): void {
    if (this.loops.get(loop.specDir) === loop) this.loops.delete(loop.specDir);
    this.publish();
  }

  private publish(): void {
    void vscode.commands.executeCommand('setContext', RUNNING_KEY, this.loops.size > 0);
  }

  dispose(): void {
    for (const l of this.loops.values()) l.controller.abort();
    this.loops.clear();
  }
}
