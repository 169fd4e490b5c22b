import { readdirSync, statSync } from 'node:fs';
import { readFileOnce } from '../fs/requestReads';
import { isAbsolute, relative, resolve } from 'node:path';
import { nodeCrypto } from '../nodeModules';
import { REVIEW_COMMENTS_FILE } from '../review/reviewComments';

/**
 * Fingerprints as loom records them in `approval_fingerprints`, `basis_fingerprints` and
 * `artifact_fingerprints` (loom's src/core/fingerprints.js): a file is the sha256 of its bytes;
 * a folder is the sha256 of one `relative-path\0sha256` line per file below it, names sorted
 * with `localeCompare` at each level. Both tools must compute the same digest for the same tree,
 * or each would call the other's fingerprints stale.
 */

const sha256 = (data: string | Buffer) => nodeCrypto().createHash('sha256').update(data).digest('hex');

/** The files loom keeps inside the spec directory; any other declared path is repository-relative. */
const SPEC_LOCAL =
  /^(?:spec\.md|plan\.md|requirements\.json|traceability\.json|artifact-analysis\.json|convergence-report\.json|review-request\.md|review-response\.md|progress\.md|pipeline\.state\.json|test-report\.md|verify-report\.md|qa-[^/]+\.md|manual-checklist\.md|tasks|task-states|handoffs|evidence|receipts|findings|implementation-packets)(?:\/|$)/;

/**
 * traceability.json is updated legitimately during executing, so it is never fingerprinted for
 * an approval and never makes an approval or a handoff stale.
 */
export function isTraceabilityLedger(path: string): boolean {
  const p = path.replace(/\/$/, '');
  return p === 'traceability.json' || p.endsWith('/traceability.json');
}

/**
 * The comment threads of a review (review-comments.json, at the top of the spec directory) are
 * the extension's own notes, and no approval artifact (approvalArtifacts.ts). Loom 3 fingerprints
 * it like any other file, though: its `fingerprintPath` digests every file below a folder and its
 * `writeHandoff` every declared artifact, with no exception for it. So a digest of a folder that
 * holds it (the spec directory declared as an artifact) and a handoff that declares it include it
 * here too: leaving it out would give a digest loom calls changed the moment it reads it. No
 * handoff the extension writes declares it, and `tasks/` never holds it, so a comment changes
 * none of their fingerprints.
 */
export function isReviewComments(path: string): boolean {
  const p = path.replace(/\\/g, '/').replace(/\/$/, '');
  return p === REVIEW_COMMENTS_FILE || p.endsWith(`/${REVIEW_COMMENTS_FILE}`);
}

export interface FingerprintRoots {
  /** Absolute spec directory. */
  dir: string;
  /** Absolute root of the repository that holds the spec directory: where every non-spec path resolves. */
  repoRoot: string;
}

/** The digest of a file or folder, or undefined when it does not exist. */
export function fingerprintPath(path: string): string | undefined {
  let isFile: boolean;
  try {
    isFile = statSync(path).isFile();
  } catch {
    return undefined;
  }
  try {
    if (isFile) return sha256(readFileOnce(path));
    const rows: string[] = [];
    const walk = (dir: string, prefix: string) => {
      const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
      for (const entry of entries) {
        const child = resolve(dir, entry.name);
        const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
        if (entry.isDirectory()) walk(child, rel);
        else rows.push(`${rel}\0${sha256(readFileOnce(child))}`);
      }
    };
    walk(path, '');
    return sha256(rows.join('\n'));
  } catch {
    return undefined;
  }
}

const isInside = (base: string, candidate: string) => {
  const rel = relative(resolve(base), resolve(candidate));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/**
 * Where loom looks for a declared path: spec files (spec.md, tasks/, evidence/ ...) in the spec
 * directory, everything else from the repository root. Absolute paths and paths that escape
 * their root are not tracked.
 */
export function trackedPath(declared: string, roots: FingerprintRoots): string | undefined {
  const value = declared.replace(/\\/g, '/').replace(/\/$/, '');
  if (!value.trim() || isAbsolute(value)) return undefined;
  const base = SPEC_LOCAL.test(value) ? roots.dir : roots.repoRoot;
  const candidate = resolve(base, value);
  return isInside(base, candidate) ? candidate : undefined;
}

/** Fingerprints of the declared paths that exist, keyed by the path as declared, in sorted order. */
export function fingerprintDeclaredPaths(paths: Iterable<string>, roots: FingerprintRoots): Record<string, string> {
  const out: Record<string, string> = {};
  for (const declared of [...new Set(paths)].sort()) {
    const path = trackedPath(declared, roots);
    const digest = path ? fingerprintPath(path) : undefined;
    if (digest) out[declared] = digest;
  }
  return out;
}

/**
 * The declared paths whose file is gone or whose digest no longer matches the recorded one, by
 * loom 3's `compareFingerprints`: one place per path (trackedPath), the digest compared as
 * recorded. The one rule both tools keep: spec files resolve in the spec directory, every other
 * path from the repository that holds it, never from a feature worktree (wherever either tool
 * made it); the extension's own worktree digests live in `worktree_fingerprints`, which loom ignores.
 */
export function changedFingerprints(expected: Readonly<Record<string, string>>, roots: FingerprintRoots): string[] {
  const changed: string[] = [];
  for (const [declared, digest] of Object.entries(expected)) {
    const path = trackedPath(declared, roots);
    if (!path || fingerprintPath(path) !== digest) changed.push(declared);
  }
  return changed;
}
