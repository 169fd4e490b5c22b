import type { Diagnostic } from '../diagnostics/diagnostic';
import type { LoomRepository } from '../repository/loomRepository';
import { specProblems } from '../repository/specDiagnostics';

/** At most this many new errors are named; the rest are counted. */
const NAMED = 10;

/** An error as the same problem wherever its line moves: file, code and message. */
const keyOf = (d: Diagnostic) => `${d.file}\0${d.code ?? ''}\0${d.message}`;

/** Every error `loom-vscode validate` reports across the repository's specs; a part that throws is left out. */
function errors(repo: LoomRepository): Diagnostic[] {
  const ignore = () => undefined;
  return [...repo.workflowProblems, ...repo.scan((s) => specProblems(s, undefined, ignore).problems).flat()].filter((d) => d.severity === 'error');
}

/** What `SessionStart` records: the errors already there when the agent began, so only its own count against it. */
export function errorKeys(repo: LoomRepository): string[] {
  return [...new Set(errors(repo).map(keyOf))];
}

/** The errors that were not there when the session began, each with its file and line. */
export function newErrors(before: ReadonlySet<string>, repo: LoomRepository): string[] {
  const fresh = errors(repo).filter((d) => !before.has(keyOf(d)));
  // Most messages begin with the file's name already: the line goes after it rather than the name twice.
  const said = (d: Diagnostic) => (d.message.startsWith(d.file) ? `${d.file}:${d.line}${d.message.slice(d.file.length)}` : `${d.file}:${d.line}: ${d.message}`);
  const named = fresh.slice(0, NAMED).map(said);
  return fresh.length > NAMED ? [...named, `… +${fresh.length - NAMED}`] : named;
}
