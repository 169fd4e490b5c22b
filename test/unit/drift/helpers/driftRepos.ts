import { mkdtempSync, realpathSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BASELINE_KEY } from '../../../../src/core/drift/baseline';
import { requirements, SPEC, state } from '../../../helpers/tempRepo';
import { updateReviewComments } from '../../../../src/core/review/reviewStore';
import { addThread, setThreadStatus } from '../../../../src/core/review/threadEdits';
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

/** A synced spec with two behaviors and a resolved thread on its requirements, whose login code then lost its invalid-input check. */
export async function driftedSpec(made: string[]) {
  const { root, baseline } = syncedRepo(made);
  commit(root, 'spec ledger', { [`${SPEC}/requirements.json`]: json(requirements(2)), [`${SPEC}/spec.md`]: '# Login\n\n## REQ-001 Log in\n\nUsers log in.\n' });
  const at = { dir: join(root, SPEC), specDir: SPEC };
  const thread = updateReviewComments(at, (c) =>
    addThread(c, { file: 'spec.md', line: 3, endLine: 3, quote: '## REQ-001 Log in', author: 'Mei', body: 'Name the lockout.', now: '2026-12-07T09:00:00.000Z' }),
  );
  updateReviewComments(at, (c) => setThreadStatus(c, thread.id, 'resolved'));
  commit(root, 'review');
  const head = commit(root, 'login: no invalid-input check', { 'src/login.ts': 'v3\n' });
  return { root, baseline, head };
}

/** The requirements ledger of driftedSpec, with its second behavior changed (or dropped: null). */
export const ledger = (b02: Record<string, unknown> | null) => {
  const r = requirements(2);
  const behaviors = r.requirements[0].behaviors;
  r.requirements[0].behaviors = b02 === null ? [behaviors[0]] : [behaviors[0], { ...behaviors[1], ...b02 }];
  return json(r);
};
