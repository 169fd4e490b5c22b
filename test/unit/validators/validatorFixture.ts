import { createHash } from 'node:crypto';
import type { Finding } from '../../../src/core/files/findings';
import { loadSpec } from '../../../src/core/specdir/loadSpec';
import type { SpecSnapshot } from '../../../src/core/specdir/specSnapshot';
import { SPEC, TempRepo } from '../../helpers/tempRepo';

export { SPEC, TempRepo };

export const NOW = '2026-11-29T12:00:00.000Z';

const testPlan = (what: string) => ({ strategy: 'unit', inputs: [what], expected: [`${what} works`], coverage_target: '100%' });

/** Two requirements, three behaviors, fully expanded (test plans, every required category). */
export function expandedRequirements() {
  return {
    requirements: [
      {
        id: 'REQ-001',
        status: 'in_progress',
        types: ['functional', 'input'],
        required_categories: ['happy-path'],
        acceptance: ['users can log in'],
        behaviors: [
          { id: 'REQ-001-B01', category: 'happy-path', description: 'a known user logs in', status: 'in_progress', acceptance: ['a session starts'], test_plan: testPlan('login') },
          { id: 'REQ-001-B02', category: 'invalid-input', description: 'a wrong password is refused', status: 'in_progress', acceptance: ['401'], test_plan: testPlan('bad password') },
        ],
      },
      {
        id: 'REQ-002',
        status: 'in_progress',
        types: ['functional'],
        acceptance: ['users can log out'],
        behaviors: [{ id: 'REQ-002-B01', category: 'happy-path', description: 'logging out ends the session', status: 'in_progress', acceptance: ['the session ends'], test_plan: testPlan('logout') }],
      },
    ],
  };
}

export const taskText = (front: Record<string, string[] | string>, title: string) =>
  `---\n${Object.entries(front)
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? `[${v.join(', ')}]` : v}`)
    .join('\n')}\n---\n# ${title}\n\n${title} in full.\n`;

/**
 * A spec that passes detail expansion and the artifact analysis: spec.md, requirements.json,
 * plan.md, tasks T1 (REQ-001) and T2 (REQ-002, after T1), traceability.json to those tasks.
 * With `executed`, every behavior also has a test file and evidence that exist.
 */
export function plannedSpec(r: TempRepo, options: { executed?: boolean } = {}): void {
  r.write(`${SPEC}/spec.md`, '# Login\n\n## Requirements\n\n- REQ-001: users log in.\n- REQ-002: users log out.\n');
  r.write(`${SPEC}/requirements.json`, expandedRequirements());
  r.write(`${SPEC}/plan.md`, '# Plan\n\n| Task | Title |\n|---|---|\n| [T1](tasks/T1.md) | Login |\n| [T2](tasks/T2.md) | Logout |\n');
  r.write(
    `${SPEC}/tasks/T1.md`,
    taskText({ owns: ['src/login.ts'], reads: [], depends_on: [], requirements: ['REQ-001'], behavior_ids: ['REQ-001-B01', 'REQ-001-B02'], complexity: 'low' }, 'T1: Login'),
  );
  r.write(`${SPEC}/tasks/T2.md`, taskText({ owns: ['src/logout.ts'], reads: [], depends_on: ['T1'], requirements: ['REQ-002'], behavior_ids: ['REQ-002-B01'], complexity: 'low' }, 'T2: Logout'));
  const refs = (test: string) => (options.executed ? { tests: [`tests/${test}.test.ts#${test}`], evidence: ['evidence/test.log'] } : { tests: [], evidence: [] });
  if (options.executed) {
    r.write('tests/login.test.ts', '// login\n');
    r.write('tests/logout.test.ts', '// logout\n');
    r.write(`${SPEC}/evidence/test.log`, 'all passed\n');
  }
  r.write(`${SPEC}/traceability.json`, {
    requirements: {
      'REQ-001': { tasks: ['T1'], ...refs('login'), behaviors: { 'REQ-001-B01': { tasks: ['T1'], ...refs('login') }, 'REQ-001-B02': { tasks: ['T1'], ...refs('login') } } },
      'REQ-002': { tasks: ['T2'], ...refs('logout'), behaviors: { 'REQ-002-B01': { tasks: ['T2'], ...refs('logout') } } },
    },
  });
}

export const load = (r: TempRepo): SpecSnapshot => loadSpec(r.root, r.path(SPEC));

/** A finding in one line, for exact comparisons: `F-1 blocker missing spec.md:5 message → fix`. */
export const line = (f: Finding) =>
  `${f.id} ${f.severity} ${f.kind} ${f.location?.file ?? '-'}${f.location?.line ? `:${f.location.line}` : ''} ${f.message}${f.suggested_fix ? ` → ${f.suggested_fix.action ?? ''}: ${f.suggested_fix.details ?? ''}` : ''}`;

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Runs `body` on a fresh temp repository and disposes of it. */
export function withRepo<T>(body: (r: TempRepo) => T): T {
  const r = new TempRepo('loom-validators-');
  try {
    return body(r);
  } finally {
    r.dispose();
  }
}
