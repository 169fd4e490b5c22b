import assert from 'node:assert/strict';
import test from 'node:test';
import type { ReviewThread } from '../../../src/core/review/reviewComments';
import { openThreadsOnStage, threadPlace } from '../../../src/core/review/stageThreads';

const thread = (id: string, file: string, status: 'open' | 'resolved' = 'open'): ReviewThread => ({ id, file, line: 2, end_line: 2, quote: 'x', status, created_at: '', comments: [] });

test("the open threads on a stage's outputs and approved files, folders included; resolved ones and other files do not count", () => {
  const comments = { version: 1 as const, threads: [thread('a', 'plan.md'), thread('b', 'tasks/T2.md'), thread('c', 'spec.md'), thread('d', 'plan.md', 'resolved'), thread('e', 'review-request.md')] };
  const planning = { outputs: ['plan.md', 'tasks/', 'traceability.json'], approvalRequires: [] };
  assert.deepEqual(
    openThreadsOnStage(planning, comments).map((t) => t.id),
    ['a', 'b'],
  );
  assert.deepEqual(
    openThreadsOnStage({ outputs: [], approvalRequires: ['review-request.md'] }, comments).map((t) => t.id),
    ['e'],
  );
  assert.equal(threadPlace({ file: 'plan.md', line: 3, end_line: 5 }), 'plan.md:3-5');
});
