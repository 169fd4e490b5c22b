import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createHash } from 'node:crypto';

/** A throwaway loom repository for tests: write files by repository-relative path. */
export class TempRepo {
  readonly root: string;

  constructor(prefix = 'loom-test-') {
    this.root = mkdtempSync(join(tmpdir(), prefix));
  }

  write(path: string, content: string | object): string {
    const abs = join(this.root, path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`);
    return abs;
  }

  read(path: string): string {
    return readFileSync(join(this.root, path), 'utf8');
  }

  json<T = any>(path: string): T {
    return JSON.parse(this.read(path)) as T;
  }

  path(p = ''): string {
    return join(this.root, p);
  }

  sha256(path: string): string {
    return createHash('sha256')
      .update(readFileSync(join(this.root, path)))
      .digest('hex');
  }

  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

export const SPEC = 'specs/2026-11-29+login';

/** A requirements ledger with one requirement and `n` behaviors. */
export function requirements(n = 2) {
  return {
    requirements: [
      {
        id: 'REQ-001',
        status: 'in_progress',
        types: ['functional'],
        required_categories: ['happy-path'],
        acceptance: ['users can log in'],
        behaviors: Array.from({ length: n }, (_, i) => ({
          id: `REQ-001-B0${i + 1}`,
          category: i === 0 ? 'happy-path' : 'invalid-input',
          description: `behavior ${i + 1}`,
          status: 'in_progress',
          acceptance: ['it works'],
        })),
      },
    ],
  };
}

export function state(stage: string, extra: Record<string, unknown> = {}) {
  return {
    spec_dir: SPEC,
    pipeline_type: 'feature',
    current_stage: stage,
    loom_version: '2.3.0',
    started_at: '2026-11-29T08:00:00.000Z',
    updated_at: '2026-11-29T09:00:00.000Z',
    current_stage_started_at: '2026-11-29T09:00:00.000Z',
    stage_history: [],
    metadata: {},
    ...extra,
  };
}

/** Writes the artifacts a spec has after planning: spec, requirements, plan, one task, traceability. */
export function plannedSpec(repo: TempRepo, spec = SPEC): void {
  repo.write(`${spec}/spec.md`, '# Login\n\nREQ-001: users log in.\n');
  repo.write(`${spec}/requirements.json`, requirements());
  repo.write(`${spec}/handoffs/detail-expansion.json`, { status: 'done', summary: 'expanded', artifacts: [] });
  repo.write(`${spec}/plan.md`, '# Plan\n\n| Task | Title |\n|---|---|\n| [T1](tasks/T1.md) | Login |\n');
  repo.write(
    `${spec}/tasks/T1.md`,
    '---\nowns: [src/login.ts]\nreads: []\ndepends_on: []\nrequirements: [REQ-001]\nbehavior_ids: [REQ-001-B01, REQ-001-B02]\ncomplexity: low\n---\n# T1 Login\n\nImplement login.\n',
  );
  repo.write(`${spec}/traceability.json`, {
    requirements: {
      'REQ-001': {
        tasks: ['T1'],
        tests: [],
        evidence: [],
        behaviors: { 'REQ-001-B01': { tasks: ['T1'], tests: [], evidence: [] }, 'REQ-001-B02': { tasks: ['T1'], tests: [], evidence: [] } },
      },
    },
  });
}

/**
 * A planned spec at `approved` whose inputs cannot be read: requirements.json cut in half and
 * T1's state with a status loom does not know. Returns requirements.json as it was.
 */
export function unreadableInputsSpec(repo: TempRepo, spec = SPEC): string {
  repo.write(`${spec}/pipeline.state.json`, state('approved'));
  plannedSpec(repo, spec);
  const text = repo.read(`${spec}/requirements.json`);
  repo.write(`${spec}/requirements.json`, text.slice(0, Math.floor(text.length / 2)));
  repo.write(`${spec}/task-states/T1.state.json`, { task_id: 'T1', status: 'finished', retry_count: 0 });
  return text;
}
