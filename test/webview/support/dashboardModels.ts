/** A realistic dashboard model for the browser tests: a feature spec in `executing`, one task tripped. */
import type { DashboardModel, DashboardTask } from '../../../src/shared/dashboardModel';

const SPEC = 'specs/2026-11-29+login';
const STAGES = [
  'brainstorming',
  'detail-expansion',
  'planning',
  'analyze-artifacts',
  'approved',
  'git-worktree',
  'executing',
  'converge',
  'verification',
  'code-review-request',
  'review-gate',
  'code-review-response',
  'synced',
];

export function dashboardModel(options: { tripped?: boolean; tokens?: boolean; stage?: string } = {}): DashboardModel {
  const tripped = options.tripped ?? true;
  const stage = options.stage ?? 'executing';
  const at = STAGES.indexOf(stage);
  const t = (h: number) => new Date(Date.UTC(2026, 10, 29, 8 + h)).toISOString();
  const task = (id: string, title: string, extra: Partial<DashboardTask>): DashboardTask => ({
    id,
    title,
    path: `${SPEC}/tasks/${id}.md`,
    status: 'pending',
    retries: 0,
    maxRetries: 3,
    owns: [`src/auth/${id.toLowerCase()}.ts`],
    dependsOn: [],
    ...extra,
  });
  return {
    kind: 'dashboard',
    specDir: SPEC,
    specName: '2026-11-29+login',
    pipelineType: 'feature',
    stage,
    stageSource: 'state',
    reviewThreads: [{ id: 't1a2b3c', path: `${SPEC}/spec.md`, file: 'spec.md', line: 4, endLine: 5, author: 'Mei', body: 'Say which password rules apply.', replies: 1, createdAt: t(2) }],
    startedAt: t(0),
    updatedAt: t(9),
    steps: STAGES.map((id, i) => ({
      id,
      status: i < at ? 'done' : i === at ? 'current' : 'waiting',
      humanApproval: id === 'approved',
      // The host marks the special stages (core/pipeline/stageRoles); the stepper shows rounds on the convergence stage.
      ...(id === 'converge' ? { role: 'convergence' as const } : {}),
      ...(i <= at ? { enteredAt: t(i) } : {}),
      ...(i < at ? { exitedAt: t(i + 1) } : {}),
      visits:
        id === 'planning'
          ? [
              { status: 'retry', enteredAt: t(1), exitedAt: t(2), reason: 'plan.md missed the rate-limit requirement' },
              { status: 'passed', enteredAt: t(2), exitedAt: t(3), approved: true },
            ]
          : i < at
            ? [{ status: 'passed', enteredAt: t(i), exitedAt: t(i + 1) }]
            : [],
    })),
    convergence: { round: 1, max: 3, status: 'needs_another_round' },
    next: [
      {
        to: 'converge',
        kind: 'forward',
        description: 'All tasks done: check convergence',
        ready: false,
        interactive: true,
        preconditions: [
          { label: 'test-report.md exists', holds: true, reasons: [] },
          { label: 'every task passed review', holds: false, reasons: ['T3 has not passed review (status: failed)'] },
          { label: 'no handoff is stale', holds: false, reasons: ['handoffs/T1.json is stale: src/auth/login.ts changed since it was written'], path: `${SPEC}/handoffs/T1.json` },
        ],
        confirmations: ['executing is left only once you confirm it is done'],
      },
    ],
    actions: { advance: true, approve: false, markFailed: true, checkStage: ['task-state-closure', 'requirement-task-closure'], recoverTo: [], reapprove: [] },
    tasks: [
      task('T1', 'Login endpoint', {
        status: 'done',
        lastReviewerResult: 'PASS',
        batch: { index: 1, type: 'serial' },
        checkpoint: { commit: '4f2a9c1e0b7d3a5f6e8c9d0a1b2c3d4e5f6a7b8c', files: ['src/auth/login.ts', 'test/auth/login.test.ts'] },
      }),
      task('T2', 'E-mail format check', { status: 'done', retries: 1, lastReviewerResult: 'PASS', dependsOn: ['T1'], batch: { index: 2, type: 'parallel' } }),
      task('T3', 'Lock the account after failed attempts', {
        status: tripped ? 'failed' : 'executing',
        retries: tripped ? 4 : 2,
        lastReviewerResult: 'FAIL: the failure counter is not persisted',
        ...(tripped ? { blocker: 'circuit breaker: review failed 4 times (max_retries 3)' } : {}),
        dependsOn: ['T1'],
        batch: { index: 2, type: 'parallel' },
        ...(tripped
          ? {
              breaker: {
                reason: 'retries' as const,
                summary: 'review failed 4 times (max_retries 3)',
                openedAt: t(8),
                blockingIssues: ['The failure counter is kept in memory and lost on restart', 'No test covers the unlock after 15 minutes'],
                finishedTasks: ['T1', 'T2'],
                dependents: ['T4'],
                choices: [
                  { choice: 'A' as const, label: 'Split this task and re-plan' },
                  { choice: 'B' as const, label: "I'll fix it by hand; tell me when to continue" },
                  { choice: 'C' as const, label: 'Skip this task (after confirming its impact)' },
                ],
              },
            }
          : {}),
      }),
      task('T4', 'Audit log of sign-ins', { status: 'pending', dependsOn: ['T2', 'T3'], owns: ['src/audit/'], batch: { index: 3, type: 'serial' } }),
    ],
    cycle: [],
    handoffs: [
      { name: 'planning', path: `${SPEC}/handoffs/planning.json`, status: 'done', summary: 'Four tasks planned in three batches', stage: 'planning', writtenAt: t(3), stale: false, changed: [] },
      { name: 'T1', path: `${SPEC}/handoffs/T1.json`, status: 'done', summary: 'Login endpoint with session cookie', taskId: 'T1', writtenAt: t(7), stale: true, changed: ['src/auth/login.ts'] },
      { name: 'T2', path: `${SPEC}/handoffs/T2.json`, status: 'partial', summary: 'Validation done; i18n messages pending', taskId: 'T2', writtenAt: t(8), stale: false, changed: [] },
    ],
    findings: [
      {
        source: 'convergence',
        file: `${SPEC}/convergence-report.json`,
        id: 'C-1',
        kind: 'missing',
        severity: 'blocker',
        message: 'REQ-002-B03 (lockout after 5 failures) has no passing test',
        requirementId: 'REQ-002',
        behaviorId: 'REQ-002-B03',
      },
      {
        source: 'artifact-analysis',
        file: `${SPEC}/artifact-analysis.json`,
        id: 'A-4',
        kind: 'partial',
        severity: 'warning',
        message: 'plan.md does not say how sessions expire',
        location: { path: `${SPEC}/plan.md`, line: 42 },
        suggestedFix: 'add: describe the session lifetime',
      },
      {
        source: 'omission-hunter',
        file: `${SPEC}/findings/omission-hunter.json`,
        id: 'O-2',
        kind: 'unrequested',
        severity: 'info',
        message: 'A "remember me" checkbox was implemented but never requested',
        taskId: 'T1',
        location: { path: 'src/auth/login.ts', line: 88 },
      },
    ],
    ...(options.tokens === false
      ? {}
      : {
          tokenUsage: {
            total: { input: 686_600, output: 91_470 },
            roles: [
              { id: 'implementer', input: 512_000, output: 70_100 },
              { id: 'reviewer', input: 126_400, output: 8_970 },
              { id: 'test-reporter', input: 48_200, output: 12_400 },
            ],
            tasks: [
              { id: 'T1', input: 182_400, output: 21_050 },
              { id: 'T2', input: 64_300, output: 9_120 },
              { id: 'T3', input: 391_700, output: 48_900 },
            ],
            stages: [
              { id: 'planning', input: 48_200, output: 12_400 },
              { id: 'executing', input: 638_400, output: 79_070 },
            ],
          },
        }),
    problems: { errors: 0, warnings: 1 },
    unreadable: [],
  };
}
