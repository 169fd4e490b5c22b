import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { SPEC_TRAILER } from '../git/checkpoints';
import { GitError, gitOutput, gitStream } from '../git/gitCommand';
import type { BaselineSource, RecordedBaseline } from './baseline';
import type { SpokenFile } from './spokenFiles';

/** A spec as drift reads it: where it is, whether it reached the stage that syncs, its baseline and its files. */
export interface DriftSubject {
  specDir: string;
  /** The spec is at the stage that syncs (or completed there). */
  synced: boolean;
  /** The id of that stage in the spec's pipeline (`synced`): what the inferred baseline looks for. */
  syncStage: string;
  recorded?: RecordedBaseline;
  /** Its files, or how to read them: read while git's log runs, a spec at a time. */
  files: readonly SpokenFile[] | (() => readonly SpokenFile[]);
}

/** The commit drift counts from: recorded (by the move to synced, an acceptance, a reconcile), or inferred from git's history. */
export interface DriftBaseline {
  commit: string;
  source: BaselineSource | 'inferred';
  recorded_at?: string;
  by?: string;
  reason?: string;
}

export type FileChangeKind = 'modified' | 'added' | 'deleted' | 'renamed';

export interface DriftedFile {
  /** The path the spec names. */
  path: string;
  change: FileChangeKind;
  /** Where a rename took it (the last name it has). */
  renamedTo?: string;
  /** The commits that changed it, oldest first. */
  commits: string[];
  tasks: string[];
  behaviors: string[];
}

export interface DriftCommit {
  commit: string;
  subject: string;
  author: string;
  date: string;
  /** The spec's files it changed (the names the spec gives them). */
  files: string[];
}

export type DriftStatus =
  /** Nothing the spec speaks for changed after its baseline. */
  | 'clean'
  | 'drifted'
  /** No baseline recorded, and git's history has no commit of the move to synced. */
  | 'no-baseline'
  /** A shallow clone does not hold the baseline (or the commit of the move to synced): said, never guessed. */
  | 'shallow'
  /** The baseline is not a commit of this repository (history rewritten). */
  | 'unknown-baseline'
  /** The spec's pipeline.state.json cannot be read: whether it is synced, and its baseline, are unknown (it is never written). */
  | 'unreadable';

export interface SpecDrift {
  specDir: string;
  status: DriftStatus;
  baseline?: DriftBaseline;
  files: DriftedFile[];
  commits: DriftCommit[];
  /** Test files the traceability names that are gone, with the behaviors they tested. */
  goneTests: { file: string; behaviors: string[]; commit: string }[];
}

export interface DriftReport {
  /** The commit drift was read at; undefined outside git or before the first commit. */
  head?: string;
  shallow: boolean;
  /** One per synced spec, in the order given. */
  specs: SpecDrift[];
}

const RS = '\x1e';
const US = '\x1f';
/** One header per commit: hash, parents, the spec trailers, author, date, subject (last: it is free text). */
const LOG_FORMAT = `--format=${RS}%H${US}%P${US}%(trailers:key=${SPEC_TRAILER},valueonly,separator=%x1d)${US}%an${US}%cI${US}%s`;

export interface LoggedCommit {
  hash: string;
  parents: string[];
  specs: string[];
  author: string;
  date: string;
  subject: string;
  /** [status, path, new path?] */
  changes: [string, string, string?][];
}

/** `git log -z --name-status` with LOG_FORMAT, newest first. */
export function parseLog(text: string): LoggedCommit[] {
  const out: LoggedCommit[] = [];
  for (const record of text.split(RS)) {
    if (!record) continue;
    const end = record.indexOf('\0');
    const header = end < 0 ? record : record.slice(0, end);
    const [hash, parents, specs, author, date, ...subject] = header.split(US);
    const tokens =
      end < 0
        ? []
        : record
            .slice(end + 1)
            .replace(/^\n/, '')
            .split('\0');
    const changes: LoggedCommit['changes'] = [];
    for (let i = 0; i < tokens.length;) {
      const status = tokens[i++];
      if (!status) continue;
      if (status[0] === 'R' || status[0] === 'C') changes.push([status, tokens[i++], tokens[i++]]);
      else changes.push([status, tokens[i++]]);
    }
    out.push({
      hash,
      parents: parents ? parents.split(' ') : [],
      specs: specs ? specs.split('\x1d').map((s) => s.trim()) : [],
      author: author ?? '',
      date: date ?? '',
      subject: subject.join(US).trim(),
      changes,
    });
  }
  return out;
}

/** Git's facts about the repository: HEAD, whether it is shallow, and the commits a shallow clone stops at. */
export interface RepositoryFacts {
  head?: string;
  shallow: boolean;
  boundary: Set<string>;
}

/**
 * The repository's facts, one `git rev-parse`, started before this returns: a caller may ask for
 * them before it reads the specs (repositoryDrift), and git answers meanwhile.
 */
export async function repositoryFacts(repoRoot: string, signal?: AbortSignal): Promise<RepositoryFacts> {
  let stdout = '';
  await gitStream(repoRoot, ['rev-parse', '--is-shallow-repository', '--git-path', 'shallow', '--verify', '--quiet', 'HEAD'], (text) => (stdout += text), { signal });
  const [isShallow, shallowPath, head] = stdout.split('\n').map((l) => l.trim());
  const shallow = isShallow === 'true';
  const boundary = new Set<string>();
  if (shallow && shallowPath) {
    try {
      for (const l of readFileSync(isAbsolute(shallowPath) ? shallowPath : join(repoRoot, shallowPath), 'utf8').split('\n')) if (l.trim()) boundary.add(l.trim());
    } catch {
      // No shallow file: nothing is cut off.
    }
  }
  return { head: head && /^[0-9a-f]{40,64}$/.test(head) ? head : undefined, shallow, boundary };
}

/**
 * The baseline of each synced spec that records none: the newest commit whose change to the
 * spec's pipeline.state.json set `current_stage` to the stage that syncs, found in one
 * `git log -p` over every such state file. In a shallow clone the commit git cut the history at
 * shows the whole file as new: it is no evidence of the move, and the answer is `shallow`.
 */
async function inferBaselines(repoRoot: string, subjects: readonly DriftSubject[], boundary: ReadonlySet<string>, signal?: AbortSignal): Promise<Map<string, string | 'shallow'>> {
  const found = new Map<string, string | 'shallow'>();
  if (!subjects.length) return found;
  const byFile = new Map(subjects.map((s) => [`${s.specDir}/pipeline.state.json`, s]));
  const r = await gitOutput(repoRoot, ['log', '-p', '-U0', '--no-renames', '--no-color', `--format=${RS}%H`, 'HEAD', '--', ...byFile.keys()], { signal });
  if (r.code !== 0) return found;
  for (const record of r.stdout.split(RS)) {
    const nl = record.indexOf('\n');
    const hash = record.slice(0, nl < 0 ? undefined : nl).trim();
    if (!hash) continue;
    let subject: DriftSubject | undefined;
    for (const line of record.slice(nl + 1).split('\n')) {
      if (line.startsWith('+++ ')) {
        subject = byFile.get(line.slice(4).replace(/^b\//, ''));
        continue;
      }
      if (!subject || found.has(subject.specDir) || !line.startsWith('+')) continue;
      const m = /"current_stage"\s*:\s*"([^"]*)"/.exec(line);
      if (m && m[1] === subject.syncStage) found.set(subject.specDir, boundary.has(hash) ? 'shallow' : hash);
    }
  }
  return found;
}

/**
 * Which of `commits` git has as commits, with their commit times: one `git log --no-walk` (a name
 * that is no commit, or not in the repository, is left out by --ignore-missing; a tag or an
 * abbreviated name comes back under another name, so it is left out too).
 */
async function commitTimes(repoRoot: string, commits: readonly string[], signal?: AbortSignal): Promise<Map<string, number>> {
  const times = new Map<string, number>();
  if (!commits.length) return times;
  const r = await gitOutput(repoRoot, ['log', '--no-walk=unsorted', '--ignore-missing', '--stdin', '--format=%H %ct'], { signal, input: commits.map((c) => `${c}\n`).join('') });
  const asked = new Set(commits);
  for (const line of r.stdout.split('\n')) {
    const [sha, time] = line.split(' ');
    if (asked.has(sha)) times.set(sha, Number(time));
  }
  return times;
}

/** Per spec, what the scan gathers. */
interface Gathering {
  subject: DriftSubject;
  result: SpecDrift;
  baseline: string;
  files: Map<string, DriftedFile>;
  commits: Map<string, DriftCommit>;
}

/**
 * Whether a spec has drifted: commits after its baseline (reachable from HEAD, not from the
 * baseline) that changed, renamed or deleted a file it speaks for, other than its own task
 * commits (`Loom-Spec:` trailer naming it). One `git log -M --name-status` serves every spec:
 * from HEAD back to the commit every baseline descends from (a second one only when that is not
 * the oldest baseline, on a history with branches). Renames are followed, oldest commit
 * first; a merge commit brings no change of its own (its branch's commits are in the log).
 */
export async function scanDrift(repoRoot: string, subjects: readonly DriftSubject[], options: { signal?: AbortSignal; facts?: Promise<RepositoryFacts> } = {}): Promise<DriftReport> {
  const { signal } = options;
  const synced = subjects.filter((s) => s.synced);
  const results: SpecDrift[] = synced.map((s) => ({ specDir: s.specDir, status: 'no-baseline', files: [], commits: [], goneTests: [] }));
  if (!synced.length) return { shallow: false, specs: results };
  const facts = await (options.facts ?? repositoryFacts(repoRoot, signal));
  if (!facts.head) return { shallow: facts.shallow, specs: results };

  const inferred = await inferBaselines(
    repoRoot,
    synced.filter((s) => !s.recorded),
    facts.boundary,
    signal,
  );
  const wanted: { i: number; commit: string }[] = [];
  synced.forEach((s, i) => {
    const res = results[i];
    if (s.recorded) {
      const { commit, source, recorded_at, by, reason } = s.recorded;
      res.baseline = { commit, source, ...(recorded_at ? { recorded_at } : {}), ...(by ? { by } : {}), ...(reason ? { reason } : {}) };
    } else {
      const got = inferred.get(s.specDir);
      if (got === 'shallow' || (got === undefined && facts.shallow)) res.status = 'shallow';
      if (got && got !== 'shallow') res.baseline = { commit: got, source: 'inferred' };
    }
    if (res.baseline) wanted.push({ i, commit: res.baseline.commit });
  });
  const times = await commitTimes(repoRoot, [...new Set(wanted.map((w) => w.commit))], signal);
  const gathering: Gathering[] = [];
  for (const { i, commit } of wanted) {
    const res = results[i];
    if (!times.has(commit)) {
      res.status = facts.shallow ? 'shallow' : 'unknown-baseline';
      continue;
    }
    res.status = 'clean';
    gathering.push({ subject: synced[i], result: res, baseline: commit, files: new Map(), commits: new Map() });
  }
  if (!gathering.length) return { head: facts.head, shallow: facts.shallow, specs: results };

  const baselines = [...new Set(gathering.map((g) => g.baseline))];
  // The log starts at once from the oldest baseline (by commit time), which on a line of history
  // is the commit every baseline descends from; its own commits then show whether it is, and only
  // when not is `merge-base --octopus` asked (its walk cost as much as the rest of the start).
  const guess = baselines.reduce((a, b) => (times.get(b)! < times.get(a)! ? b : a));
  const logged = logSince(repoRoot, baselines, guess, signal);
  // Handled now, awaited below: a failure while the files are read is not an unhandled rejection.
  logged.catch(() => undefined);
  // The specs' files are read while git walks the history, yielding now and then so that its output is parsed as it comes.
  const files = await filesWhileWaiting(gathering.map((g) => g.subject));
  let ancestry = await logged;
  if (!ancestry.allDescendFrom(guess, baselines)) {
    const base = await commonAncestor(repoRoot, baselines, signal);
    if (base !== guess) ancestry = await logSince(repoRoot, baselines, base, signal);
  }
  applyLog(ancestry, facts.head, gathering, files);
  return { head: facts.head, shallow: facts.shallow, specs: results };
}

/**
 * The commits reachable from HEAD or from a baseline and not from `base` (every commit when
 * undefined), newest first: one `git log -M --name-status`, parsed as its output comes.
 */
async function logSince(repoRoot: string, baselines: readonly string[], base: string | undefined, signal?: AbortSignal): Promise<Ancestry> {
  const tips = ['HEAD', ...baselines.filter((b) => b !== base)];
  const reader = new LogReader();
  const r = await gitStream(repoRoot, ['log', '-M', '--name-status', '-z', '--no-color', LOG_FORMAT, ...tips, ...(base ? ['--not', base] : []), '--'], (text) => reader.push(text), { signal });
  if (r.code !== 0) throw new GitError(`git log failed in ${repoRoot}: ${r.stderr.trim()}`, r.code, r.stderr);
  return reader.end();
}

/**
 * parseLog over output that comes in pieces: each commit's record is parsed once it is whole (the
 * next one has begun), and indexed as it comes, so that the ancestry is at hand when git ends.
 */
export class LogReader {
  private pending = '';
  private readonly commits: LoggedCommit[] = [];
  private readonly index = new Map<string, number>();
  /** The commits whose parents are not just the next one listed (a merge, the last before the range's start): all a line of history needs checked. */
  private readonly unusual: number[] = [];

  push(text: string): void {
    this.pending += text;
    const cut = this.pending.lastIndexOf(RS);
    if (cut <= 0) return;
    this.add(parseLog(this.pending.slice(0, cut)));
    this.pending = this.pending.slice(cut);
  }

  private add(commits: readonly LoggedCommit[]): void {
    for (const c of commits) {
      const i = this.commits.length;
      const before = this.commits[i - 1];
      if (before && (before.parents.length !== 1 || before.parents[0] !== c.hash)) this.unusual.push(i - 1);
      this.commits.push(c);
      this.index.set(c.hash, i);
    }
  }

  end(): Ancestry {
    this.add(parseLog(this.pending));
    this.pending = '';
    if (this.commits.length) this.unusual.push(this.commits.length - 1);
    return new Ancestry(this.commits, this.index, this.unusual);
  }
}

/** Each subject's files, read a few specs at a time between turns of the event loop. */
async function filesWhileWaiting(subjects: readonly DriftSubject[]): Promise<(readonly SpokenFile[])[]> {
  const out: (readonly SpokenFile[])[] = [];
  for (let i = 0; i < subjects.length; i++) {
    const f = subjects[i].files;
    out.push(typeof f === 'function' ? f() : f);
    if (i % 25 === 24) await new Promise((resolve) => setImmediate(resolve));
  }
  return out;
}

/** The commit every baseline descends from (`merge-base --octopus`); undefined when they share none. */
async function commonAncestor(repoRoot: string, commits: readonly string[], signal?: AbortSignal): Promise<string | undefined> {
  const r = await gitOutput(repoRoot, ['merge-base', '--octopus', ...commits], { signal });
  const sha = r.stdout.trim().split('\n')[0];
  return r.code === 0 && sha ? sha : undefined;
}

/** Ancestry inside the logged commits, each commit's reach computed once, as a bitmap over their indices. */
class Ancestry {
  private parentIndices?: number[][];
  private readonly linear: boolean;
  private readonly memo = new Map<string, Uint8Array>();

  constructor(
    readonly commits: readonly LoggedCommit[],
    private readonly index: ReadonlyMap<string, number>,
    unusual: readonly number[],
  ) {
    // A line of history, newest first: what a commit reaches is every commit after it in the list.
    // Only the commits whose parents are not just the next one listed can break the line.
    this.linear = unusual.every((i) => {
      const inLog = commits[i].parents.filter((p) => index.has(p));
      return inLog.length === 0 || (inLog.length === 1 && index.get(inLog[0]) === i + 1);
    });
  }

  /** Each commit's parents among the logged commits, by index: made when a history with branches first asks. */
  private get parents(): number[][] {
    return (this.parentIndices ??= this.commits.map((c) => c.parents.map((p) => this.index.get(p)).filter((p): p is number => p !== undefined)));
  }

  /**
   * Whether every one of `baselines` reaches `base` (a log that stops at `base` then holds every
   * commit after each of them): `base` itself, or a logged commit it reaches has `base` as a parent.
   * The log leaves out only what `base` reaches, so a path from a baseline to `base` leaves the
   * logged commits at `base` itself.
   */
  allDescendFrom(base: string, baselines: readonly string[]): boolean {
    const children: number[] = [];
    this.commits.forEach((c, i) => {
      if (c.parents.includes(base)) children.push(i);
    });
    return baselines.every((b) => {
      if (b === base) return true;
      if (!this.index.has(b)) return false;
      const reached = this.reach(b);
      return children.some(reached);
    });
  }

  /**
   * The commits after `baseline` as seen from `head`: those `head` reaches and `baseline` does not.
   * On a line of history, the ones between them in the list (no bitmap, no call through two tests).
   */
  after(head: string, baseline: string): (i: number) => boolean {
    if (this.linear) {
      const from = this.index.get(head) ?? Infinity;
      const to = this.index.get(baseline) ?? Infinity;
      return (i) => i >= from && i < to;
    }
    const fromHead = this.reach(head);
    const reachedByBaseline = this.reach(baseline);
    return (i) => fromHead(i) && !reachedByBaseline(i);
  }

  /** The commits `hash` reaches (itself included); none when it is not among them. */
  reach(hash: string): (i: number) => boolean {
    const start = this.index.get(hash);
    if (start === undefined) return () => false;
    if (this.linear) return (i) => i >= start;
    let bits = this.memo.get(hash);
    if (!bits) {
      bits = new Uint8Array(this.commits.length);
      const parents = this.parents;
      const stack = [start];
      while (stack.length) {
        const i = stack.pop()!;
        if (bits[i]) continue;
        bits[i] = 1;
        for (const p of parents[i]) if (!bits[p]) stack.push(p);
      }
      this.memo.set(hash, bits);
    }
    const b = bits;
    return (i) => b[i] === 1;
  }
}

const CHANGE: Record<string, FileChangeKind> = { M: 'modified', T: 'modified', A: 'added', D: 'deleted', R: 'renamed' };

interface Track {
  g: Gathering;
  /** The file as the spec names it. */
  origin: SpokenFile;
  /** Whether the commit at an index of the log is after the spec's baseline (its spec's, shared by its files). */
  after: (i: number) => boolean;
}

function applyLog(ancestry: Ancestry, head: string, gathering: Gathering[], files: readonly (readonly SpokenFile[])[]): void {
  const { commits } = ancestry;
  const tracks = new Map<string, Track[]>();
  const follow = (path: string, t: Track) => {
    const list = tracks.get(path);
    if (list) list.push(t);
    else tracks.set(path, [t]);
  };
  gathering.forEach((g, i) => {
    const after = ancestry.after(head, g.baseline);
    for (const f of files[i]) follow(f.path, { g, origin: f, after });
  });

  // Oldest first, so that a rename is followed before the later changes under the new name.
  for (let i = commits.length - 1; i >= 0; i--) {
    const c = commits[i];
    for (const [status, path, renamed] of c.changes) {
      const list = tracks.get(path);
      if (!list) continue;
      const kind = CHANGE[status[0]];
      // The tracks as they were before this change: a rename adds to the new name's list, not to these.
      for (let k = 0, n = list.length; k < n; k++) {
        const t = list[k];
        if (!t.after(i)) continue;
        if (kind === 'renamed' && renamed) follow(renamed, t);
        if (!kind || c.specs.includes(t.g.subject.specDir)) continue;
        record(t, c, kind, kind === 'renamed' ? renamed : undefined);
      }
    }
  }
  for (const g of gathering) {
    if (!g.files.size) continue;
    g.result.status = 'drifted';
    g.result.files = [...g.files.values()];
    // Newest first, as git lists them.
    g.result.commits = [...g.commits.values()].reverse();
  }
}

function record(t: Track, c: LoggedCommit, kind: FileChangeKind, renamedTo: string | undefined): void {
  const { g, origin } = t;
  let f = g.files.get(origin.path);
  if (!f) g.files.set(origin.path, (f = { path: origin.path, change: kind, commits: [], tasks: origin.tasks, behaviors: origin.behaviors }));
  // The last change says where the file is now; a rename stays a rename when the new name is then changed.
  if (kind === 'renamed') {
    f.change = 'renamed';
    f.renamedTo = renamedTo;
  } else if (f.change !== 'renamed' || kind === 'deleted') f.change = kind;
  // Commits come oldest first, so one already counted for this file is the last one.
  if (f.commits[f.commits.length - 1] !== c.hash) f.commits.push(c.hash);
  let dc = g.commits.get(c.hash);
  if (!dc) g.commits.set(c.hash, (dc = { commit: c.hash, subject: c.subject, author: c.author, date: c.date, files: [] }));
  if (!dc.files.includes(origin.path)) dc.files.push(origin.path);
  if (kind === 'deleted' && origin.behaviors.length) {
    const gone = g.result.goneTests.find((x) => x.file === origin.path);
    if (gone) gone.commit = c.hash;
    else g.result.goneTests.push({ file: origin.path, behaviors: origin.behaviors, commit: c.hash });
  }
}
