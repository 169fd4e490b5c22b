import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { sha256OfFile } from '../fs/sha256';
import type { SpecSnapshot } from './specSnapshot';
import { findWorktree } from './worktree';

export interface StaleHandoff {
  handoff: string;
  /** Files whose fingerprint no longer matches, or that no longer exist. */
  changed: string[];
}

/** traceability.json is updated legitimately during executing, so it never makes a handoff stale. */
const isTraceability = (p: string) => p === 'traceability.json' || p.endsWith('/traceability.json');

/**
 * A handoff whose recorded fingerprints no longer match the files is stale. Paths resolve
 * against the spec directory, then the repository root, then the feature's worktree.
 */
export function staleHandoffs(s: SpecSnapshot): StaleHandoff[] {
  const out: StaleHandoff[] = [];
  let worktree: string | undefined | null = null;
  const locate = (p: string): string | undefined => {
    if (isAbsolute(p)) return existsSync(p) ? p : undefined;
    const candidates = [join(s.dir, p), resolve(s.repoRoot, p)];
    if (worktree === null) worktree = findWorktree(s);
    if (worktree) candidates.push(resolve(worktree, p));
    return candidates.find((c) => existsSync(c));
  };
  for (const [name, handoff] of s.handoffs) {
    const prints = { ...(handoff.basis_fingerprints ?? {}), ...(handoff.artifact_fingerprints ?? {}) };
    const changed: string[] = [];
    for (const [path, sha] of Object.entries(prints)) {
      if (isTraceability(path)) continue;
      const found = locate(path);
      if (!found || sha256OfFile(found) !== String(sha).toLowerCase()) changed.push(path);
    }
    if (changed.length) out.push({ handoff: `handoffs/${name}.json`, changed });
  }
  return out;
}
