import { existsSync, readFileSync, statSync } from 'node:fs';
import type { z } from 'zod';
import { lazySchema } from '../../../shared/lazySchema';
import { writeFileAtomic } from '../../fs/atomicWrite';
import { fsPromises } from '../../nodeModules';
import type { ToolCall, ToolSpec } from '../dispatch/chatModel';
import type { SubagentRole } from '../dispatch/modelTier';
import { isTestPath } from './testFiles';
import { describeTestLocations, findTestLocations, testLocationAllows, type TestLocations } from './testWriteScope';
import { UntrustedWorkspaceError, type TestRunner } from '../evidence/testRunner';
import { runTextSearch, SEARCH_DEADLINE_MS } from './textSearch';
import type { TextSearchRequest } from './textSearchScan';
import { ownsAllows, WorktreeBoundary } from './worktreeBoundary';

/**
 * The tools a subagent gets: read a file, list a folder, search text, write or edit a file, run
 * the project's tests. Paths are confined to the feature's worktree; writes are held to the
 * task's `owns` (or to the test locations for the test reporter, or refused for the reviewer); a test
 * file is never deleted or emptied; commands need a trusted workspace. A refusal is a normal
 * tool result the model reads, not an exception. Every call is logged.
 */
export const TOOL_NAMES = {
  readFile: 'loom_read_file',
  listDir: 'loom_list_dir',
  searchText: 'loom_search_text',
  writeFile: 'loom_write_file',
  editFile: 'loom_edit_file',
  runTests: 'loom_run_tests',
} as const;

/** `tests-only` is the test reporter's: its test locations, found in the worktree when not given. */
export type WriteScope = { kind: 'owns'; owns: readonly string[] } | { kind: 'tests-only'; locations?: TestLocations } | { kind: 'none' };

export interface ToolCallRecord {
  at: string;
  task: string;
  role: SubagentRole;
  tool: string;
  /** The input, with file contents replaced by their length. */
  input: unknown;
  outcome: 'ok' | 'refused' | 'error';
  message: string;
}

export type ToolCallLogger = (record: ToolCallRecord) => void;

export interface ToolResult {
  content: string;
  outcome: ToolCallRecord['outcome'];
}

export interface WorkspaceToolsOptions {
  worktree: string;
  task: string;
  role: SubagentRole;
  scope: WriteScope;
  /** Worktree-relative paths (files, or folders ending in `/`) only Loom writes: lifecycle files of a spec inside the worktree. */
  protectedPaths?: readonly string[];
  trusted: boolean;
  testCommand?: string;
  testRunner?: TestRunner;
  testTimeoutMs: number;
  /** How long one text search may run before its worker is stopped; SEARCH_DEADLINE_MS when unset. */
  searchDeadlineMs?: number;
  log: ToolCallLogger;
  now: () => string;
}

const MAX_READ = 512 * 1024;
const MAX_LIST = 500;
const MAX_MATCHES = 100;
const MAX_SEARCH_FILE = 1024 * 1024;
/** Longer patterns are refused, longer lines searched in their beginning only: both bound the work of one search. */
const MAX_PATTERN = 1000;
const MAX_SEARCH_LINE = 4000;
const SKIPPED_DIRS = ['.git', 'node_modules'];

const ReadInput = lazySchema((z) => z.object({ path: z.string(), start_line: z.number().int().min(1).optional(), end_line: z.number().int().min(1).optional() }));
const ListInput = lazySchema((z) => z.object({ path: z.string().optional() }));
const SearchInput = lazySchema((z) => z.object({ query: z.string().min(1), path: z.string().optional(), regex: z.boolean().optional(), case_sensitive: z.boolean().optional() }));
const WriteInput = lazySchema((z) => z.object({ path: z.string(), content: z.string() }));
const EditInput = lazySchema((z) => z.object({ path: z.string(), old_text: z.string().min(1), new_text: z.string() }));
const RunInput = lazySchema((z) => z.object({}).loose());

const SPECS: Record<keyof typeof TOOL_NAMES, ToolSpec> = {
  readFile: {
    name: TOOL_NAMES.readFile,
    description: 'Read a text file of the worktree. Optional 1-based start_line/end_line.',
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string', description: 'worktree-relative path' }, start_line: { type: 'integer', minimum: 1 }, end_line: { type: 'integer', minimum: 1 } },
      required: ['path'],
    },
  },
  listDir: {
    name: TOOL_NAMES.listDir,
    description: 'List a folder of the worktree (folders end in /). Without a path, the worktree root.',
    inputSchema: { type: 'object', properties: { path: { type: 'string', description: 'worktree-relative folder' } } },
  },
  searchText: {
    name: TOOL_NAMES.searchText,
    description: `Search the worktree (or one folder or file of it) for text; returns path:line: text for up to ${MAX_MATCHES} matches. With regex, RE2 syntax (no backreferences or lookaround); the query is at most ${MAX_PATTERN} characters and lines are searched in their first ${MAX_SEARCH_LINE} characters.`,
    inputSchema: { type: 'object', properties: { query: { type: 'string' }, path: { type: 'string' }, regex: { type: 'boolean' }, case_sensitive: { type: 'boolean' } }, required: ['query'] },
  },
  writeFile: {
    name: TOOL_NAMES.writeFile,
    description: "Create or overwrite a file with the given content. Only paths inside the task's owns are allowed.",
    inputSchema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] },
  },
  editFile: {
    name: TOOL_NAMES.editFile,
    description: 'Replace old_text, which must occur exactly once in the file, with new_text.',
    inputSchema: { type: 'object', properties: { path: { type: 'string' }, old_text: { type: 'string' }, new_text: { type: 'string' } }, required: ['path', 'old_text', 'new_text'] },
  },
  runTests: {
    name: TOOL_NAMES.runTests,
    description: "Run the project's test command in the worktree and return its exit code and output.",
    inputSchema: { type: 'object', properties: {} },
  },
};

class Refusal extends Error {}

export class WorkspaceTools {
  private readonly boundary: WorktreeBoundary;
  /** Worktree-relative paths this session wrote, in order of first write. */
  readonly written = new Set<string>();
  /** Where the test reporter may write; undefined for the other roles. */
  readonly testLocations?: TestLocations;

  constructor(private readonly options: WorkspaceToolsOptions) {
    this.boundary = new WorktreeBoundary(options.worktree);
    const { scope } = options;
    if (scope.kind === 'tests-only') this.testLocations = scope.locations ?? findTestLocations(this.boundary.root, { excluded: options.protectedPaths });
  }

  /** The tools to offer: no write tools to a role that may not write, no test tool without a command. */
  specs(): ToolSpec[] {
    const out = [SPECS.readFile, SPECS.listDir, SPECS.searchText];
    if (this.testLocations) {
      const where = describeTestLocations(this.testLocations);
      out.push(
        { ...SPECS.writeFile, description: `Create or overwrite a test file with the given content. Only these may be written: ${where}.` },
        { ...SPECS.editFile, description: `${SPECS.editFile.description} Only these may be edited: ${where}.` },
      );
    } else if (this.options.scope.kind !== 'none') out.push(SPECS.writeFile, SPECS.editFile);
    if (this.options.testCommand) out.push(SPECS.runTests);
    return out;
  }

  async invoke(call: ToolCall, signal: AbortSignal): Promise<ToolResult> {
    let result: ToolResult;
    try {
      const content = await this.dispatch(call, signal);
      result = { content, outcome: 'ok' };
    } catch (e) {
      if (signal.aborted) throw signal.reason;
      result = e instanceof Refusal ? { content: `Refused: ${e.message}`, outcome: 'refused' } : { content: `Error: ${(e as Error).message}`, outcome: 'error' };
    }
    this.options.log({
      at: this.options.now(),
      task: this.options.task,
      role: this.options.role,
      tool: call.name,
      input: loggedInput(call.input),
      outcome: result.outcome,
      message: result.outcome === 'ok' ? firstLine(result.content) : result.content,
    });
    return result;
  }

  private dispatch(call: ToolCall, signal: AbortSignal): Promise<string> | string {
    switch (call.name) {
      case TOOL_NAMES.readFile:
        return this.readFile(parse(ReadInput(), call.input));
      case TOOL_NAMES.listDir:
        return this.listDir(parse(ListInput(), call.input));
      case TOOL_NAMES.searchText:
        return this.searchText(parse(SearchInput(), call.input), signal);
      case TOOL_NAMES.writeFile:
        return this.writeFile(parse(WriteInput(), call.input));
      case TOOL_NAMES.editFile:
        return this.editFile(parse(EditInput(), call.input));
      case TOOL_NAMES.runTests:
        parse(RunInput(), call.input ?? {});
        return this.runTests(signal);
      default:
        throw new Refusal(`there is no tool named ${call.name}`);
    }
  }

  private inside(path: unknown) {
    const r = this.boundary.resolve(path);
    if (!r.ok) throw new Refusal(r.reason);
    return r;
  }

  private readFile(input: z.infer<ReturnType<typeof ReadInput>>): string {
    const { abs, rel } = this.inside(input.path);
    if (!existsSync(abs)) throw new Refusal(`${rel} does not exist`);
    const st = statSync(abs);
    if (st.isDirectory()) throw new Refusal(`${rel} is a folder; list it with ${TOOL_NAMES.listDir}`);
    const buf = readFileSync(abs);
    if (buf.subarray(0, 8000).includes(0)) return `${rel} is a binary file (${buf.length} bytes)`;
    let text = buf.subarray(0, MAX_READ).toString('utf8');
    if (input.start_line || input.end_line) {
      const lines = text.split('\n');
      const from = (input.start_line ?? 1) - 1;
      text = lines.slice(from, input.end_line ?? lines.length).join('\n');
    }
    return buf.length > MAX_READ && !input.start_line ? `${text}\n… (file truncated at ${MAX_READ} bytes; read a line range)` : text;
  }

  private async listDir(input: z.infer<ReturnType<typeof ListInput>>): Promise<string> {
    const { abs, rel } = this.inside(input.path ?? '.');
    if (!existsSync(abs) || !statSync(abs).isDirectory()) throw new Refusal(`${rel || '.'} is not a folder`);
    const entries = (await fsPromises().readdir(abs, { withFileTypes: true })).filter((e) => e.name.toLowerCase() !== '.git').sort((a, b) => a.name.localeCompare(b.name));
    const names = entries.slice(0, MAX_LIST).map((e) => (e.isDirectory() ? `${e.name}/` : e.name));
    if (entries.length > MAX_LIST) names.push(`… and ${entries.length - MAX_LIST} more`);
    return names.length ? names.join('\n') : '(empty folder)';
  }

  private async searchText(input: z.infer<ReturnType<typeof SearchInput>>, signal: AbortSignal): Promise<string> {
    const { abs, rel } = this.inside(input.path ?? '.');
    if (input.query.length > MAX_PATTERN) throw new Refusal(`the query is ${input.query.length} characters long; at most ${MAX_PATTERN} are searched for`);
    if (!existsSync(abs)) throw new Refusal(`${rel || '.'} does not exist`);
    const request: TextSearchRequest = {
      abs,
      rel,
      query: input.query,
      regex: input.regex ?? false,
      caseSensitive: input.case_sensitive ?? false,
      maxMatches: MAX_MATCHES,
      maxFileBytes: MAX_SEARCH_FILE,
      maxLineChars: MAX_SEARCH_LINE,
      skippedDirs: SKIPPED_DIRS,
    };
    const found = await runTextSearch(request, { signal, deadlineMs: this.options.searchDeadlineMs ?? SEARCH_DEADLINE_MS });
    if (found.kind === 'refused') throw new Refusal(found.message);
    const { lines } = found;
    if (found.kind === 'deadline') {
      const stopped = `the search ran longer than ${found.seconds} s and was stopped; search a smaller folder or a simpler pattern`;
      if (!lines.length) throw new Refusal(stopped);
      return `${lines.join('\n')}\n… (${stopped})`;
    }
    if (lines.length === 0) return 'no matches';
    return lines.length >= MAX_MATCHES ? `${lines.join('\n')}\n… (stopped at ${MAX_MATCHES} matches)` : lines.join('\n');
  }

  /** Whether this session may write `rel`; throws the refusal the model will read. */
  private checkWritable(rel: string): void {
    const { scope } = this.options;
    if (!rel) throw new Refusal('a path is required');
    if (scope.kind === 'none') throw new Refusal(`the ${this.options.role} may not change files`);
    // In any case: on a case-insensitive file system `.LOOM/x` is `.loom/x`.
    const lower = rel.toLowerCase();
    const protectedHit = (this.options.protectedPaths ?? []).map((p) => p.toLowerCase()).find((p) => (p.endsWith('/') ? lower.startsWith(p) || `${lower}/` === p : lower === p));
    if (protectedHit) throw new Refusal(`${rel} is a lifecycle file of the spec; only Loom writes it`);
    if (this.testLocations) {
      const allowed = testLocationAllows(this.testLocations, rel);
      if (!allowed.ok) throw new Refusal(allowed.reason);
    }
    if (scope.kind === 'owns' && !ownsAllows(scope.owns, rel)) {
      throw new Refusal(`${rel} is outside this task's owns (${scope.owns.join(', ') || 'nothing'}); write only there, or stop with NEEDS_CONTEXT and say why you need it`);
    }
  }

  private writeFile(input: z.infer<ReturnType<typeof WriteInput>>): string {
    const { abs, rel } = this.inside(input.path);
    this.checkWritable(rel);
    const exists = existsSync(abs);
    if (exists && statSync(abs).isDirectory()) throw new Refusal(`${rel} is a folder`);
    if (exists && isTestPath(rel) && input.content.trim() === '') throw new Refusal(`${rel} is a test file; emptying it counts as deleting it, which is not allowed`);
    writeFileAtomic(abs, input.content);
    this.written.add(rel);
    return `${exists ? 'wrote' : 'created'} ${rel} (${Buffer.byteLength(input.content)} bytes)`;
  }

  private editFile(input: z.infer<ReturnType<typeof EditInput>>): string {
    const { abs, rel } = this.inside(input.path);
    this.checkWritable(rel);
    if (!existsSync(abs) || !statSync(abs).isFile()) throw new Refusal(`${rel} does not exist; create it with ${TOOL_NAMES.writeFile}`);
    const text = readFileSync(abs, 'utf8');
    const first = text.indexOf(input.old_text);
    if (first < 0) throw new Refusal(`old_text does not occur in ${rel}`);
    if (text.indexOf(input.old_text, first + 1) >= 0) throw new Refusal(`old_text occurs more than once in ${rel}; include more surrounding lines`);
    const next = text.slice(0, first) + input.new_text + text.slice(first + input.old_text.length);
    if (isTestPath(rel) && next.trim() === '') throw new Refusal(`${rel} is a test file; emptying it counts as deleting it, which is not allowed`);
    writeFileAtomic(abs, next);
    this.written.add(rel);
    return `edited ${rel}`;
  }

  private async runTests(signal: AbortSignal): Promise<string> {
    const { testCommand, testRunner, trusted } = this.options;
    if (!trusted) throw new Refusal(new UntrustedWorkspaceError().message);
    if (!testCommand || !testRunner) throw new Refusal('no test command is configured for this project');
    const run = await testRunner.run(testCommand, this.boundary.root, { signal, timeoutMs: this.options.testTimeoutMs });
    const status = run.timedOut ? `timed out after ${Math.round(run.durationMs / 1000)} s` : `exit code ${run.exitCode}`;
    const output = run.output.length > 12000 ? `…\n${run.output.slice(-12000)}` : run.output;
    return `${testCommand}: ${status}\n${output}`;
  }
}

function parse<T>(schema: z.ZodType<T>, input: unknown): T {
  const r = schema.safeParse(input ?? {});
  if (!r.success) throw new Refusal(`invalid input: ${r.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')}`);
  return r.data;
}

function loggedInput(input: unknown): unknown {
  if (!input || typeof input !== 'object') return input;
  const out: Record<string, unknown> = { ...(input as Record<string, unknown>) };
  for (const key of ['content', 'new_text', 'old_text']) {
    if (typeof out[key] === 'string') out[key] = `(${(out[key] as string).length} characters)`;
  }
  return out;
}

const firstLine = (s: string) => s.split('\n', 1)[0].slice(0, 200);
