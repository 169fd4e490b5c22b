import type { Diagnostic } from '../core/port/reports';
import { REQUIREMENTS_FILE, TRACEABILITY_FILE } from '../core/port/files';
import { t } from '../core/port/messages';
import type { SpecPipeline } from '../core/port/specs';

/** A file the command needs exists but cannot be read: answering anyway would be silently wrong. */
export class UnreadableInputError extends Error {
  constructor(
    message: string,
    readonly diagnostics: readonly Diagnostic[],
  ) {
    super(message);
  }
}

/** The keys of a task file that batching reads. */
const BATCH_KEYS = ['owns', 'reads', 'depends_on'];

/**
 * A task whose frontmatter does not parse, or whose owns/reads/depends_on the schema rejected, is
 * planned as if it had none of them: the batches would be wrong. A problem on another key
 * (`complexity: huge`) does not matter here.
 */
export function readableTasks(s: SpecPipeline): void {
  const broken = [...s.snapshot.tasks.values()].flatMap((t) => {
    const otherKeyLines = new Set([...t.keyLines].filter(([k]) => !BATCH_KEYS.includes(k)).map(([, line]) => line));
    return s.diagnostics.filter((d) => d.file === t.file && d.severity === 'error' && (d.code === 'frontmatter-syntax' || (d.code === 'schema' && !otherKeyLines.has(d.line))));
  });
  if (broken.length) throw new UnreadableInputError(t('cli.input.tasksUnreadable', { specDir: s.snapshot.specDir }), broken);
}

/** The requirements and traceability ledgers the matrix is built from read as loom's. */
export function readableLedgers(s: SpecPipeline): void {
  const files: string[] = [];
  if (s.snapshot.requirementsCondition === 'invalid') files.push(`${s.snapshot.specDir}/${REQUIREMENTS_FILE}`);
  if (s.snapshot.traceabilityCondition === 'invalid') files.push(`${s.snapshot.specDir}/${TRACEABILITY_FILE}`);
  if (files.length) {
    throw new UnreadableInputError(
      t('input.ledgersUnreadable', { specDir: s.snapshot.specDir, files: files.join(', ') }),
      s.diagnostics.filter((d) => files.includes(d.file)),
    );
  }
}
