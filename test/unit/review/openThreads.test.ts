import assert from 'node:assert/strict';
import test from 'node:test';
import { openThreadsOn, threadPlace } from '../../../src/core/review/openThreads';
import { REVIEW_COMMENTS_FILE, type ReviewThread } from '../../../src/core/review/reviewComments';
import { SPEC, TempRepo } from '../../helpers/tempRepo';

const thread = (id: string, file: string, status: 'open' | 'resolved' = 'open'): ReviewThread => ({
  id,
  file,
  line: 2,
  end_line: 2,
  quote: 'x',
  status,
  created_at: '',
  comments: [{ id: `${id}1`, author: 'a', body: `on\n${file}`, created_at: '' }],
});

test("the open threads on a stage's files, folders included; resolved ones and other files do not count", () => {
  const r = new TempRepo();
  try {
    r.write(`${SPEC}/${REVIEW_COMMENTS_FILE}`, {
      version: 1,
      threads: [thread('a', 'plan.md'), thread('b', 'tasks/T2.md'), thread('c', 'spec.md'), thread('d', 'plan.md', 'resolved'), thread('e', 'review-request.md')],
    });
    const spec = { dir: r.path(SPEC), specDir: SPEC, files: new Set([REVIEW_COMMENTS_FILE]) };
    assert.deepEqual(openThreadsOn(spec, ['plan.md', 'tasks/', 'traceability.json']), [
      { file: 'plan.md', place: 'plan.md:2', comment: 'on plan.md' },
      { file: 'tasks/T2.md', place: 'tasks/T2.md:2', comment: 'on tasks/T2.md' },
    ]);
    assert.deepEqual(
      openThreadsOn(spec, ['review-request.md']).map((t) => t.file),
      ['review-request.md'],
    );
    // A spec without the file is not read at all.
    assert.deepEqual(openThreadsOn({ ...spec, files: new Set<string>() }, ['plan.md']), []);
    assert.equal(threadPlace({ file: 'plan.md', line: 3, end_line: 5 }), 'plan.md:3-5');
  } finally {
    r.dispose();
  }
});
