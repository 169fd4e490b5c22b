import { basename, dirname, isAbsolute, join } from 'node:path';

/**
 * The root loom resolves a project path of a spec against (loom 3's projectRootForSpecDir): the
 * repository that holds `specs/`, never the feature worktree. A spec directory that is not right
 * under a `specs` folder (`qa/<name>`) is its own root for loom, so it is here too.
 */
export function projectRootOf(specDir: string): string {
  const parent = dirname(specDir);
  return /^specs$/i.test(basename(parent)) ? dirname(parent) : specDir;
}

/**
 * Where a test reference may be, in the order loom's resolveProjectReference tries (the spec
 * directory, then the project root); an absolute path is itself and a URL is no file at all.
 * `file` is the reference with its `#name` / `::name` target already stripped.
 */
export function projectReferencePaths(specDir: string, file: string): string[] {
  const clean = file.trim().replace(/\\/g, '/');
  if (!clean || /^(?:https?:|urn:|sha256:)/i.test(clean)) return [];
  if (isAbsolute(clean)) return [clean];
  return [join(specDir, clean), join(projectRootOf(specDir), clean)];
}
