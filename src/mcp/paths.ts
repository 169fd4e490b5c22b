import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { t } from '../core/port/messages';
import { ToolRefusal } from './results';

const escapes = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel === '..' || rel.startsWith('../') || rel.startsWith('..\\') || isAbsolute(rel);
};

/**
 * A path the model gave, resolved against the repository and refused when it leaves it: by `..`,
 * by an absolute path elsewhere, or through a symbolic link that points outside (as loom's
 * safeResolveSpecDir refuses `../../etc`; the link check is ours). Nothing is read or written
 * before this check.
 */
export function insideRepository(root: string, input: string, what: 'spec_dir' | 'artifact'): string {
  const abs = resolve(root, input);
  const refuse = () => new ToolRefusal('outside-repository', t(what === 'spec_dir' ? 'mcp.path.specDirEscapes' : 'mcp.path.artifactEscapes', { input, root }), t('mcp.path.escapesHint'));
  if (escapes(root, abs)) throw refuse();
  let real: string;
  try {
    real = realpathSync(abs);
  } catch {
    return abs; // not there (yet): `..` was the only way out, and it was checked
  }
  if (escapes(realpathSync(root), real)) throw refuse();
  return abs;
}
