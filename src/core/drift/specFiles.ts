import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseJsonDocument } from '../diagnostics/jsonDocument';
import { parseTaskFile, TASKS_DIR, type TaskFile } from '../files/taskFile';
import { normalizeTraceability, plainTraceabilityFile, TRACEABILITY_FILE, TraceabilityFileSchema } from '../files/traceability';
import { TASK_FILE_PATTERN } from '../files/vocabulary';
import { readOptionalText } from '../fs/readOptional';
import { repoRelative } from '../fs/paths';
import { byTaskNumber } from '../specdir/loadSpec';
import { spokenFiles, type SpokenFile } from './spokenFiles';

/** The task files' names in task order; none when tasks/ is not a folder (a link to one is not read: the spec reader lists no folder behind it). */
const taskFileNames = (dir: string): string[] => {
  const folder = join(dir, TASKS_DIR);
  try {
    if (!lstatSync(folder, { throwIfNoEntry: false })?.isDirectory()) return [];
    return readdirSync(folder)
      .filter((name) => TASK_FILE_PATTERN.test(name))
      .sort(byTaskNumber);
  } catch {
    return [];
  }
};

/**
 * The files a spec in `dir` speaks for, from its task files and traceability.json alone, parsed
 * as the spec reader parses them (same parsers, same task order; a file that cannot be read or
 * parsed names nothing, as it names nothing to the reader). Drift reads a thousand synced specs
 * while git's log runs: the spec reader's listing of the whole directory and its task-state and
 * handoff folders, and its second read of the state file, cost a third of that for nothing.
 */
export function readSpokenFiles(repoRoot: string, dir: string): SpokenFile[] {
  const specDir = repoRelative(repoRoot, dir);
  const tasks = new Map<string, TaskFile>();
  for (const name of taskFileNames(dir)) {
    const text = readOptionalText(join(dir, TASKS_DIR, name));
    if (text === undefined) continue;
    // loom's taskIdFromFilename: the name without `.md`, its case kept.
    const { task } = parseTaskFile(`${specDir}/${TASKS_DIR}/${name}`, name.replace(/\.md$/i, ''), text);
    tasks.set(task.id, task);
  }
  const traceText = readOptionalText(join(dir, TRACEABILITY_FILE));
  const trace = traceText === undefined ? undefined : parseJsonDocument(`${specDir}/${TRACEABILITY_FILE}`, traceText, TraceabilityFileSchema, plainTraceabilityFile).value;
  return spokenFiles({ specDir, tasks, traceability: trace ? normalizeTraceability(trace) : undefined });
}
