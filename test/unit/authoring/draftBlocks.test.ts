import assert from 'node:assert/strict';
import test from 'node:test';
import { DraftStream, mergeDrafts, normalizeDraftPath, parseDrafts, renderDraft, replySummary } from '../../../src/core/authoring/draftBlocks';

test('parseDrafts separates prose from file blocks, keeping content (fences included) unchanged', () => {
  const reply = 'I chose A.\n=== FILE: spec.md ===\n# T\n\n```js\nx()\n```\n=== END FILE ===\nCheck REQ-002.\n';
  const { drafts, prose } = parseDrafts(reply);
  assert.deepEqual(drafts, [{ path: 'spec.md', content: '# T\n\n```js\nx()\n```\n', complete: true }]);
  assert.equal(prose, 'I chose A.\nCheck REQ-002.\n');
});

test('a block left open at the end is kept but marked incomplete; a new block closes the previous one', () => {
  const { drafts } = parseDrafts('=== FILE: a.md ===\none\n=== FILE: b.md ===\ntwo');
  assert.deepEqual(
    drafts.map((d) => [d.path, d.content, d.complete]),
    [
      ['a.md', 'one\n', false],
      ['b.md', 'two\n', false],
    ],
  );
});

test('markers split across chunks and CRLF line ends are read the same', () => {
  const s = new DraftStream();
  const events = [...s.push('hi\r\n=== FI'), ...s.push('LE: tasks/T1.md ===\r\n---\r\nowns: []\r\n--'), ...s.push('-\r\n=== END FILE ===\r\n'), ...s.end()];
  assert.deepEqual(
    events.map((e) => e.type),
    ['prose', 'fileStart', 'fileEnd'],
  );
  assert.deepEqual(s.drafts, [{ path: 'tasks/T1.md', content: '---\nowns: []\n---\n', complete: true }]);
});

test('paths are made spec-relative', () => {
  assert.equal(normalizeDraftPath(' `./spec.md` '), 'spec.md');
  assert.equal(normalizeDraftPath('specs/2026-11-30+tags/tasks/T1.md', 'specs/2026-11-30+tags'), 'tasks/T1.md');
  assert.equal(normalizeDraftPath('"tasks\\T2.md"'), 'tasks/T2.md');
});

test('mergeDrafts: a later draft of a file replaces the earlier one, others stay', () => {
  const a = { path: 'a', content: '1\n', complete: true };
  const b = { path: 'b', content: '2\n', complete: true };
  const a2 = { path: 'a', content: '3\n', complete: true };
  assert.deepEqual(mergeDrafts([a, b], [a2]), [a2, b]);
});

test('renderDraft round-trips through parseDrafts', () => {
  const d = { path: 'plan.md', content: '# P\n', complete: true };
  assert.deepEqual(parseDrafts(renderDraft(d)).drafts, [d]);
});

test("a handoff's summary is the first paragraph of the replies' prose, whoever drafted (@loom, Refine, Run Pipeline)", () => {
  // Run Pipeline took the raw reply's first paragraph, file block and all, where @loom took the prose.
  const reply = '=== FILE: spec.md ===\n# Spec\n=== END FILE ===\n\nWrote the spec.\n\nMore detail.';
  assert.equal(replySummary([reply]), 'Wrote the spec.');
  assert.equal(replySummary(['  \n\nFirst said.\n\nSecond.', 'A repair.']), 'First said.');
  assert.equal(replySummary(['=== FILE: spec.md ===\n# Spec\n=== END FILE ===\n']), '');
});
