import type matterType from 'gray-matter';
import type { z } from 'zod';
import { lazily } from '../../shared/lazily';
import { lazySchema } from '../../shared/lazySchema';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic';
import { describePath, schemaProblems } from '../diagnostics/zodIssues';
import { t } from '../messages';
import { simpleFrontmatter } from './simpleFrontmatter';
import { COMPLEXITIES } from './vocabulary';

export const TaskFrontmatterSchema = lazySchema((z) => {
  /** A list in frontmatter: inline `[a, b]`, a block list, a lone string, or absent. */
  const list = z
    .union([z.array(z.union([z.string(), z.number()])), z.string(), z.null()])
    .optional()
    .transform((v) => (v == null ? [] : (Array.isArray(v) ? v : [v]).map((x) => String(x).trim()).filter((x) => x.length > 0)));
  return z.looseObject({
    owns: list,
    reads: list,
    depends_on: list,
    requirements: list,
    behavior_ids: list,
    complexity: z.enum(COMPLEXITIES).optional(),
  });
});
export type TaskFrontmatter = z.infer<ReturnType<typeof TaskFrontmatterSchema>>;

export interface TaskFile extends TaskFrontmatter {
  /** `T3` for `tasks/T3.md`. */
  id: string;
  file: string;
  title: string;
  description: string;
  /** Keys present in the frontmatter, with their 1-based lines, for diagnostics and edits. */
  keyLines: Map<string, number>;
  /** false when the frontmatter does not parse: the lists above are then unknown, not empty. */
  frontmatterValid: boolean;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (see lazily); esbuild bundles it as it bundles an import
const grayMatter = lazily(() => require('gray-matter') as typeof matterType);

/**
 * gray-matter's parse of a frontmatter not in the shape loom writes. gray-matter (and js-yaml
 * under it) loads on the first such file: the files loom writes never need it, and loading it
 * cost every start of the CLI and the extension tens of milliseconds.
 */
function grayMatterParse(text: string): matterType.GrayMatterFile<string> {
  // An empty options object keeps gray-matter from caching every file it ever saw.
  return grayMatter()(text, {});
}

/** `T1.md` and `T1` both name task T1. */
export const normalizeTaskRef = (ref: string) => ref.trim().replace(/\.md$/i, '');

const EMPTY_FRONTMATTER: TaskFrontmatter = { owns: [], reads: [], depends_on: [], requirements: [], behavior_ids: [] };

/** Plain string lists, or a lone plain string, as the schema's `list` makes them. */
const asList = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

export function parseTaskFile(file: string, id: string, text: string): { task: TaskFile; diagnostics: Diagnostic[] } {
  const simple = simpleFrontmatter(text);
  // The shape loom writes, with a valid complexity: built in one step, no schema, no copies.
  if (simple) {
    const d = simple.data;
    const complexity = Object.hasOwn(d, 'complexity') ? d.complexity : undefined;
    if (complexity === undefined || (typeof complexity === 'string' && (COMPLEXITIES as readonly string[]).includes(complexity))) {
      const { title, description } = titleAndDescription(simple.body);
      const task: TaskFile = {
        owns: asList(d.owns),
        reads: asList(d.reads),
        depends_on: asList(d.depends_on),
        requirements: asList(d.requirements),
        behavior_ids: asList(d.behavior_ids),
        id,
        file,
        title: title || id,
        description,
        keyLines: simple.keyLines,
        frontmatterValid: true,
      };
      if (complexity !== undefined) task.complexity = complexity as TaskFile['complexity'];
      // Keys loom does not define are kept, as the schema's looseObject keeps them.
      for (const key of simple.keyLines.keys()) if (!Object.hasOwn(task, key)) (task as Record<string, unknown>)[key] = d[key];
      return { task, diagnostics: [] };
    }
  }
  const diagnostics: Diagnostic[] = [];
  let data: unknown = {};
  let body: string;
  if (simple) {
    data = simple.data;
    body = simple.body;
  } else
    try {
      const parsed = grayMatterParse(text);
      data = parsed.data ?? {};
      body = parsed.content;
    } catch (e) {
      const err = e as Error & { mark?: { line?: number; column?: number }; reason?: string };
      // js-yaml counts lines from 0 inside the frontmatter, which gray-matter starts right after the
      // opening `---` (its line break included), so js-yaml's line 0 is the file's line 1.
      const line = err.mark?.line !== undefined ? err.mark.line + 1 : 1;
      diagnostics.push(
        diagnostic(file, `${file}: the YAML frontmatter does not parse: ${err.reason ?? err.message.split('\n')[0]}`, { line, column: (err.mark?.column ?? 0) + 1 }, 'error', 'frontmatter-syntax'),
      );
      body = text.replace(/^---\r?\n[\s\S]*?\r?\n---\r?\n?/, '');
    }
  const keyLines = simple?.keyLines ?? frontmatterKeyLines(text);
  let front: TaskFrontmatter = EMPTY_FRONTMATTER;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    diagnostics.push(diagnostic(file, t('files.frontmatterNotMapping', { file }), { line: 2 }, 'error', 'schema'));
  } else {
    const result = TaskFrontmatterSchema().safeParse(data);
    if (result.success) front = result.data;
    else {
      for (const { path, message } of schemaProblems(result.error.issues)) {
        const keyName = String(path[0] ?? '');
        diagnostics.push(diagnostic(file, t('files.schemaProblem', { file, where: describePath(path), problem: message }), { line: keyLines.get(keyName) ?? 1 }, 'error', 'schema'));
      }
      // Keep what did parse, so one bad key does not hide the others.
      const partial: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(data)) {
        if (!result.error.issues.some((i) => i.path[0] === k)) partial[k] = v;
      }
      front = TaskFrontmatterSchema().safeParse(partial).data ?? EMPTY_FRONTMATTER;
    }
  }
  const { title, description } = titleAndDescription(body);
  const frontmatterValid = !diagnostics.some((d) => d.code === 'frontmatter-syntax');
  return { task: { ...front, id, file, title: title || id, description, keyLines, frontmatterValid }, diagnostics };
}

/**
 * Yields the lines of `text` one at a time, so that readers which stop early (the frontmatter,
 * the first paragraph) never split a whole file: task files are read by the thousand.
 */
function* linesOf(text: string): Generator<string> {
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    yield text.charCodeAt(end - 1) === 13 ? text.slice(start, end - 1) : text.slice(start, end);
    start = end + 1;
  }
}

const KEY_LINE = /^([A-Za-z_][\w-]*)\s*:/;

function frontmatterKeyLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  let n = 0;
  for (const line of linesOf(text)) {
    n++;
    if (n === 1) {
      if (line.trim() !== '---') return lines;
      continue;
    }
    if (line.trim() === '---') break;
    const m = KEY_LINE.exec(line);
    if (m && !lines.has(m[1])) lines.set(m[1], n);
  }
  return lines;
}

/**
 * The `#` title and the first line of body text after it (later headings are skipped). A plain
 * loop rather than linesOf: it runs once per task file of every scan.
 */
function titleAndDescription(body: string): { title: string; description: string } {
  let title = '';
  let start = 0;
  while (start <= body.length) {
    let end = body.indexOf('\n', start);
    if (end === -1) end = body.length;
    const line = body.slice(start, end).trim();
    start = end + 1;
    if (!line) continue;
    if (line.charCodeAt(0) === 35 /* # */) {
      if (!title) title = line.replace(/^#+\s*/, '');
      continue;
    }
    return { title, description: line };
  }
  return { title, description: '' };
}

export const TASKS_DIR = 'tasks';
