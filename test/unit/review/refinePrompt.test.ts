import assert from 'node:assert/strict';
import test from 'node:test';
import { refineCommand, checkRefinedDrafts } from '../../../src/core/review/refineCommand';
import { buildRefineMessages, threadAnswers } from '../../../src/core/review/refinePrompt';
import { quoteLines } from '../../../src/core/review/anchoring';
import { readReviewComments, updateReviewComments } from '../../../src/core/review/reviewStore';
import { addThread, setThreadStatus } from '../../../src/core/review/threadEdits';
import { freshSpec, GOOD } from '../authoring/authoringFixture';

const NOW = '2026-12-01T10:00:00.000Z';

test('the refine prompt holds the open threads, their quoted lines, the stage and the files they are on, nothing else', () => {
  const s = freshSpec([...GOOD.brainstorm, ...GOOD.plan]);
  try {
    const spec = GOOD.brainstorm[0].content;
    const at = { dir: s.dir, specDir: s.specDir };
    const open = updateReviewComments(at, (c) => addThread(c, { file: 'spec.md', line: 1, endLine: 1, quote: quoteLines(spec, 1, 1), author: 'Mei', body: 'Name the feature plainly.', now: NOW }));
    const closed = updateReviewComments(at, (c) => addThread(c, { file: 'plan.md', line: 1, endLine: 1, quote: 'x', author: 'Mei', body: 'Resolved already.', now: NOW }));
    updateReviewComments(at, (c) => setThreadStatus(c, closed.id, 'resolved'));
    const messages = buildRefineMessages({
      repoRoot: s.root,
      language: 'en',
      dir: s.dir,
      specDir: s.specDir,
      threads: readReviewComments(at).threads,
      stageOf: (f) => (f === 'spec.md' ? 'brainstorming' : 'planning'),
      request: '',
    });
    assert.equal(messages.length, 1);
    const prompt = messages[0].content;
    assert.ok(prompt.includes(`THREAD ${open.id} — spec.md, line 1`));
    assert.ok(prompt.includes(`> ${spec.split('\n')[0]}`), 'the quoted line');
    assert.ok(prompt.includes('- Mei: Name the feature plainly.'));
    assert.ok(prompt.includes('### spec.md (stage: brainstorming)'));
    assert.ok(prompt.includes(spec.trim()), 'the file the thread is on');
    assert.ok(!prompt.includes('Resolved already.'), 'no resolved thread');
    assert.ok(!prompt.includes(GOOD.plan[0].content.trim()), 'no file without an open thread');
    assert.ok(!prompt.includes(GOOD.brainstorm[1].content.trim()), 'not the rest of the spec');
    assert.ok(prompt.includes('You may write\nonly: spec.md.'));
  } finally {
    s.cleanup();
  }
});

test("the model's THREAD lines become each thread's answer", () => {
  assert.deepEqual(
    [...threadAnswers('Done.\nTHREAD t1: renamed the title\n- **THREAD t2**: added REQ-003\n')],
    [
      ['t1', 'renamed the title'],
      ['t2', 'added REQ-003'],
    ],
  );
});

test("refined files are checked by their stage's checks and only the threaded files may be written", () => {
  const s = freshSpec([...GOOD.brainstorm]);
  try {
    const command = refineCommand(['spec.md'], 'brainstorming');
    assert.deepEqual(checkRefinedDrafts(s.root, s.specDir, command, [{ path: 'spec.md', content: GOOD.brainstorm[0].content, complete: true }]), []);
    const lost = GOOD.brainstorm[0].content.replace(/## REQ-002[\s\S]*?(?=## Non-goals)/, '');
    assert.ok(
      checkRefinedDrafts(s.root, s.specDir, command, [{ path: 'spec.md', content: lost, complete: true }]).some((p) => p.includes('REQ-002')),
      "brainstorming's consistency check",
    );
    assert.ok(checkRefinedDrafts(s.root, s.specDir, command, [{ path: 'plan.md', content: '# Plan\n', complete: true }]).some((p) => p.includes('not a file /refine may write')));
  } finally {
    s.cleanup();
  }
});
