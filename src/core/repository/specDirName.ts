import { splitSpecName } from '../specdir/specName';

/** What a name a person typed for a spec (`due-dates`, `2026-11-25+due-dates`) names among the spec directories. */
export type SpecDirMatch =
  /** One spec: its repository-relative directory. */
  | { kind: 'found'; specDir: string }
  /** Several specs go by that name: each of them. */
  | { kind: 'ambiguous'; specDirs: string[] }
  /** None: the ones it may have meant, closest first (possibly none). */
  | { kind: 'unknown'; suggestions: string[] };

const MAX_SUGGESTIONS = 3;

/**
 * Finds the spec a person means by `name` among `specDirs` (repository-relative, `specs/<date+feature>`):
 * a spec directory's folder name (`2026-11-25+due-dates`, under any spec root), else its feature
 * name (`due-dates`) when only one spec has it. Otherwise the names it may have been a slip for:
 * those that contain it, or are a few letters away from it.
 */
export function matchSpecDir(specDirs: readonly string[], name: string): SpecDirMatch {
  const wanted = name.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '');
  const folder = (dir: string) => dir.slice(dir.lastIndexOf('/') + 1);
  const byFolder = specDirs.filter((d) => d === wanted || folder(d) === wanted);
  if (byFolder.length === 1) return { kind: 'found', specDir: byFolder[0] };
  if (byFolder.length > 1) return { kind: 'ambiguous', specDirs: byFolder };
  const feature = (dir: string) => splitSpecName(folder(dir)).feature;
  const byFeature = specDirs.filter((d) => feature(d) === wanted);
  if (byFeature.length === 1) return { kind: 'found', specDir: byFeature[0] };
  if (byFeature.length > 1) return { kind: 'ambiguous', specDirs: byFeature };

  const last = wanted.slice(wanted.lastIndexOf('/') + 1).toLowerCase();
  const scored = specDirs
    .map((d) => {
      const f = feature(d).toLowerCase();
      const contains = last.length >= 3 && (f.includes(last) || last.includes(f));
      return { d, distance: contains ? 0 : Math.min(editDistance(f, last), editDistance(folder(d).toLowerCase(), last)) };
    })
    .filter((s) => s.distance <= Math.max(2, Math.floor(last.length / 4)))
    .sort((a, b) => a.distance - b.distance || a.d.localeCompare(b.d));
  return { kind: 'unknown', suggestions: scored.slice(0, MAX_SUGGESTIONS).map((s) => s.d) };
}

/** Levenshtein distance: the insertions, deletions and substitutions that turn one name into the other. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length];
}
