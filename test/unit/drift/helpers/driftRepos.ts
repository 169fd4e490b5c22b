import { mkdtempSync, realpathSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BASELINE_KEY } from '../../../../src/core/drift/baseline';
import { SPEC, state } from '../../../helpers/tempRepo';
import { git, write } from '../../executing/helpers/gitRepos';

export const WORKFLOW = 'pipelines:\n  feature:\n    steps:\n      - { id: executing, next: synced }\n      - { id: synced }\n';
export const TASK = '---\nowns: [src/login.ts]\nreads: []\ndepends_on: []\nrequirements: [REQ-001]\nbehavior_ids: [REQ-001-B01]\n---\n# T1 Login\n';
const TRACE = {
  requirements: {
    'REQ-001': { tasks: ['T1'], tests: [], evidence: [], behaviors: { 'REQ-001-B01': { tasks: ['T1'], tests: ['test/login.test.ts#logs in'], evidence: [] } } },
  },
};

export const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
export function commit(root: string, message: string, files: Record<string, string | null> = {}): string {
  for (const [p, text] of Object.entries(files)) {
    if (text === null) unlinkSync(join(root, p));
    else write(root, p, text);
  }
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '--allow-empty', '-m', message);
  return git(root, 'rev-parse', 'HEAD').trim();
}

/** A repository whose spec is synced at its second commit; `recorded`: its baseline is in the state (else only git's history says). */
export function syncedRepo(made: string[], recorded = true): { root: string; baseline: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'loom-drift-')));
  made.push(root);
  git(root, 'init', '-q', '-b', 'main');
  commit(root, 'plan', {
    '.loom/workflow.yaml': WORKFLOW,
    [`${SPEC}/pipeline.state.json`]: json(state('executing')),
    [`${SPEC}/tasks/T1.md`]: TASK,
    [`${SPEC}/traceability.json`]: json(TRACE),
    'src/login.ts': 'v1\n',
    'src/other.ts': 'o1\n',
    'test/login.test.ts': "test('logs in', () => {});\n",
  });
  const baseline = commit(root, 'T1: login', { 'src/login.ts': 'v2\n' });
  const synced = recorded ? state('synced', { metadata: { [BASELINE_KEY]: { commit: baseline, recorded_at: '2026-12-01T00:00:00Z', source: 'synced' } } }) : state('synced');
  commit(root, 'synced', { [`${SPEC}/pipeline.state.json`]: json(synced) });
  return { root, baseline };
}
