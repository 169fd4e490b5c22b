import { existsSync, opendirSync } from 'node:fs';
import { join } from 'node:path';
import { PIPELINE_STATE_FILE, SPEC_ROOTS, WORKFLOW_FILE } from '../core/port/vocabulary';

/**
 * Whether VS Code activated Loom because the window opened on a loom repository: one of the
 * folders holds what package.json's `workspaceContains` activation events look for
 * (.loom/workflow.yaml, or a spec directory under specs/ or qa/ with pipeline.state.json or
 * spec.md). The entry then lets activate() return at once and starts the extension a moment
 * later; anywhere else Loom was activated for a command, a chat request, a tool or an MCP server,
 * which VS Code hands over right after activate() returns, and must find registered.
 *
 * Bounded work at any size: a stat, and at most `PEEK` entries of each spec root (a loom
 * repository's first spec directory already answers).
 */
const PEEK = 8;
const SPEC_FILES = [PIPELINE_STATE_FILE, 'spec.md'];

export function activatedWithWindow(folders: readonly string[]): boolean {
  return folders.some((folder) => existsSync(join(folder, WORKFLOW_FILE)) || SPEC_ROOTS.some((root) => holdsSpecDir(join(folder, root))));
}

function holdsSpecDir(root: string): boolean {
  let dir;
  try {
    dir = opendirSync(root);
  } catch {
    return false; // no such folder, or not one
  }
  try {
    for (let i = 0; i < PEEK; i++) {
      const entry = dir.readSync();
      if (!entry) return false;
      if (entry.isDirectory() && SPEC_FILES.some((f) => existsSync(join(root, entry.name, f)))) return true;
    }
    return false;
  } finally {
    dir.closeSync();
  }
}
