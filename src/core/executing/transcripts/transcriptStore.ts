import { appendFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SubagentRole } from '../dispatch/modelTier';

/**
 * Full transcripts of every dispatch live in the extension's storage, never in the spec
 * directory (which receives only handoffs, states and reports). The host passes its storage
 * path to FileTranscriptStore; the dashboard and the tree read them back with `list` / `read`.
 */
export type TranscriptKind = 'request' | 'reply' | 'tool-call' | 'tool-result' | 'status' | 'error';

export interface TranscriptEntry {
  at: string;
  dispatchId: string;
  /** Repository-relative spec directory, e.g. `specs/2026-11-25+due-dates`. */
  spec: string;
  /** A task id, or `test-reporter`. */
  task: string;
  role: SubagentRole;
  mode?: 'first' | 'fix' | 'review' | 'report';
  kind: TranscriptKind;
  model?: string;
  content: unknown;
  tokens?: number;
}

export interface DispatchSummary {
  dispatchId: string;
  spec: string;
  task: string;
  role: SubagentRole;
  startedAt: string;
  entries: number;
}

export interface TranscriptStore {
  append(entry: TranscriptEntry): void;
  list(spec: string): DispatchSummary[];
  read(spec: string, dispatchId: string): TranscriptEntry[];
}

/** File names from ids: `specs/2026-11-25+x` → `specs__2026-11-25+x`. */
const safe = (s: string) => s.replace(/[/\\]+/g, '__').replace(/[^A-Za-z0-9_.+@-]/g, '_');

/** One JSONL file per dispatch under `<storage>/transcripts/<spec>/`. */
export class FileTranscriptStore implements TranscriptStore {
  constructor(private readonly storageDir: string) {}

  private dir(spec: string): string {
    return join(this.storageDir, 'transcripts', safe(spec));
  }

  append(entry: TranscriptEntry): void {
    const dir = this.dir(entry.spec);
    mkdirSync(dir, { recursive: true });
    appendFileSync(join(dir, `${safe(entry.dispatchId)}.jsonl`), `${JSON.stringify(entry)}\n`);
  }

  list(spec: string): DispatchSummary[] {
    let names: string[];
    try {
      names = readdirSync(this.dir(spec)).filter((n) => n.endsWith('.jsonl'));
    } catch {
      return [];
    }
    const out: DispatchSummary[] = [];
    for (const name of names) {
      const entries = this.readFile(join(this.dir(spec), name));
      const first = entries[0];
      if (first) out.push({ dispatchId: first.dispatchId, spec: first.spec, task: first.task, role: first.role, startedAt: first.at, entries: entries.length });
    }
    return out.sort((a, b) => (a.startedAt < b.startedAt ? -1 : a.startedAt > b.startedAt ? 1 : 0));
  }

  read(spec: string, dispatchId: string): TranscriptEntry[] {
    return this.readFile(join(this.dir(spec), `${safe(dispatchId)}.jsonl`));
  }

  private readFile(path: string): TranscriptEntry[] {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return [];
    }
    const out: TranscriptEntry[] = [];
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        out.push(JSON.parse(line) as TranscriptEntry);
      } catch {
        // A line cut short by a crash is skipped; the rest of the transcript still reads.
      }
    }
    return out;
  }
}

/** Keeps transcripts in memory: for tests and for hosts without storage. */
export class MemoryTranscriptStore implements TranscriptStore {
  readonly entries: TranscriptEntry[] = [];

  append(entry: TranscriptEntry): void {
    this.entries.push(entry);
  }

  list(spec: string): DispatchSummary[] {
    const byId = new Map<string, DispatchSummary>();
    for (const e of this.entries) {
      if (e.spec !== spec) continue;
      const s = byId.get(e.dispatchId);
      if (s) s.entries++;
      else byId.set(e.dispatchId, { dispatchId: e.dispatchId, spec: e.spec, task: e.task, role: e.role, startedAt: e.at, entries: 1 });
    }
    return [...byId.values()];
  }

  read(spec: string, dispatchId: string): TranscriptEntry[] {
    return this.entries.filter((e) => e.spec === spec && e.dispatchId === dispatchId);
  }
}
