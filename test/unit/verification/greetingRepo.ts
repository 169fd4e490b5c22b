import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TempRepo } from '../../helpers/tempRepo';

export const GREETING = 'specs/2026-12-01+greeting';

const WORKFLOW = readFileSync(join(__dirname, '../../../sample/.loom/workflow.yaml'), 'utf8');

/** A passing test of the greeting, and one that does not pass. */
export const PASSING_TEST =
  "const test = require('node:test');\nconst assert = require('node:assert');\nconst { greet } = require('../src/greet');\ntest('REQ-001-B01 greets by name', () => assert.strictEqual(greet('Ada'), 'Hello, Ada!'));\n";
export const BROKEN_TEST = PASSING_TEST.replace("'Hello, Ada!'", "'Goodbye, Ada!'");

/**
 * A small project whose one feature, `greeting`, is at verification with everything loom asks
 * before it: the tests, a passing test-report.md with its evidence receipt, traceability closed,
 * convergence converged, and the sample's workflow (loom's feature pipeline).
 */
export function greetingAtVerification(options: { test?: string; packageJson?: object; constitution?: string } = {}): TempRepo {
  const repo = new TempRepo('loom-verify-');
  repo.write('.loom/workflow.yaml', WORKFLOW);
  if (options.constitution) repo.write('.loom/rules/constitution.md', options.constitution);
  repo.write('package.json', options.packageJson ?? { name: 'greeting', private: true, scripts: { test: 'node --test' } });
  repo.write('src/greet.js', 'exports.greet = (name) => `Hello, ${name}!`;\n');
  repo.write('tests/greet.test.js', options.test ?? PASSING_TEST);
  repo.write(`${GREETING}/spec.md`, '# Greeting\n\n## REQ-001 Greet by name\n\nThe service greets a person by name.\n');
  repo.write(`${GREETING}/requirements.json`, {
    requirements: [
      {
        id: 'REQ-001',
        status: 'in_progress',
        types: ['functional'],
        required_categories: ['happy-path'],
        acceptance: ['a person is greeted by name'],
        behaviors: [{ id: 'REQ-001-B01', category: 'happy-path', description: 'greets by name', status: 'in_progress', acceptance: ['Hello, Ada!'] }],
      },
    ],
  });
  repo.write(`${GREETING}/plan.md`, '# Plan: Greeting\n\n## Tasks\n\n- [T1](tasks/T1.md) greet by name\n');
  repo.write(
    `${GREETING}/tasks/T1.md`,
    '---\nowns: [src/greet.js, tests/greet.test.js]\nreads: []\ndepends_on: []\nrequirements: [REQ-001]\nbehavior_ids: [REQ-001-B01]\n---\n# T1: Greet by name\n\nWrite `greet(name)`.\n',
  );
  repo.write(`${GREETING}/evidence/test.log`, '$ node --test\n# pass 1\n');
  repo.write(`${GREETING}/traceability.json`, {
    requirements: {
      'REQ-001': {
        tasks: ['T1'],
        tests: ['tests/greet.test.js'],
        evidence: ['evidence/test.log'],
        behaviors: { 'REQ-001-B01': { tasks: ['T1'], tests: ['tests/greet.test.js#REQ-001-B01 greets by name'], evidence: ['evidence/test.log'] } },
      },
    },
  });
  const sha = repo.sha256(`${GREETING}/evidence/test.log`);
  repo.write(
    `${GREETING}/test-report.md`,
    `# Test Report: Greeting\n\n| Requirement | Result |\n|---|---|\n| REQ-001 | PASS |\n\n## Evidence\n\n- evidence-command: \`node --test\`\n- evidence-exit-code: 0\n- evidence-file: evidence/test.log\n- evidence-sha256: ${sha}\n\nverdict: PASS\n`,
  );
  repo.write(`${GREETING}/convergence-report.json`, {
    stage: 'converge',
    round: 1,
    status: 'converged',
    classification: { 'REQ-001-B01': 'covered' },
    findings: [],
    coverage: { behavior_coverage: '100%', covered: 1, missing: 0, partial: 0, unrequested: 0 },
    blocker_count: 0,
  });
  repo.write(`${GREETING}/task-states/T1.state.json`, {
    task_id: 'T1',
    spec_dir: GREETING,
    status: 'done',
    retry_count: 0,
    agent_session_id: null,
    created_at: '2026-12-01T09:00:00.000Z',
    updated_at: '2026-12-01T10:00:00.000Z',
    last_reviewer_result: 'PASS',
    blocker: null,
  });
  repo.write(`${GREETING}/pipeline.state.json`, {
    spec_dir: GREETING,
    pipeline_type: 'feature',
    current_stage: 'verification',
    loom_version: '2.3.0',
    started_at: '2026-12-01T08:00:00.000Z',
    updated_at: '2026-12-01T11:00:00.000Z',
    current_stage_started_at: '2026-12-01T11:00:00.000Z',
    stage_history: [],
    metadata: {},
  });
  return repo;
}
