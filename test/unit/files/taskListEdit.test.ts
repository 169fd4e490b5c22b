import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LoomError } from '../../../src/core/errors';
import { parseTaskFile } from '../../../src/core/files/taskFile';
import { taskListEdits, type TaskListChange } from '../../../src/core/files/taskListEdit';
import { applyTextEdits } from '../../helpers/textEdits';

const FILE = 'specs/2026-11-29+login/tasks/T3.md';

/** The file after the edits, the edits themselves, and what the core's task reader reads back. */
function edit(text: string, change: TaskListChange) {
  const edits = taskListEdits(FILE, text, change);
  const after = applyTextEdits(text, edits);
  const { task, diagnostics } = parseTaskFile(FILE, 'T3', after);
  assert.deepEqual(diagnostics, [], `the edited file parses:\n${after}`);
  return { after, edits, list: task[change.key], task };
}

const add = (key: TaskListChange['key'], value: string): TaskListChange => ({ key, op: 'add', value });
const remove = (key: TaskListChange['key'], value: string): TaskListChange => ({ key, op: 'remove', value });

const BODY = '# T3: Lock the account\n\nLock it after five failed attempts.\n';
const flow = (lists: string) => `---\nowns: [src/lock.ts]\n${lists}complexity: low\n---\n${BODY}`;

describe('taskListEdits: a flow list [a, b]', () => {
  it("adds after the last item with the list's own separator, one small insertion", () => {
    const out = edit(flow('behavior_ids: [REQ-001-B01, REQ-001-B02]\n'), add('behavior_ids', 'REQ-001-B03'));
    assert.deepEqual(out.edits, [{ file: FILE, range: { start: { line: 3, column: 40 }, end: { line: 3, column: 40 } }, newText: ', REQ-001-B03' }]);
    assert.deepEqual(out.list, ['REQ-001-B01', 'REQ-001-B02', 'REQ-001-B03']);
    assert.equal(out.after, flow('behavior_ids: [REQ-001-B01, REQ-001-B02, REQ-001-B03]\n'));
  });

  it('keeps unusual spacing: [ a ,b ] stays as written around the new item', () => {
    const out = edit(flow('behavior_ids: [ REQ-001-B01 ,REQ-001-B02 ]\n'), add('behavior_ids', 'REQ-001-B03'));
    assert.equal(out.after, flow('behavior_ids: [ REQ-001-B01 ,REQ-001-B02 ,REQ-001-B03 ]\n'));
  });

  it('fills an empty [] and leaves a comment after the list alone', () => {
    assert.equal(edit(flow('behavior_ids: []\n'), add('behavior_ids', 'REQ-001-B01')).after, flow('behavior_ids: [REQ-001-B01]\n'));
    assert.equal(edit(flow('behavior_ids: [ ]  # none yet\n'), add('behavior_ids', 'REQ-001-B01')).after, flow('behavior_ids: [REQ-001-B01]  # none yet\n'));
  });

  it('removes the first, a middle and the last item with their separator', () => {
    const list = 'depends_on: [T1, T2, T4]\n';
    assert.equal(edit(flow(list), remove('depends_on', 'T1')).after, flow('depends_on: [T2, T4]\n'));
    assert.equal(edit(flow(list), remove('depends_on', 'T2')).after, flow('depends_on: [T1, T4]\n'));
    assert.equal(edit(flow(list), remove('depends_on', 'T4')).after, flow('depends_on: [T1, T2]\n'));
  });

  it('removing the only item leaves []; a depends_on written T9.md matches T9', () => {
    const out = edit(flow('depends_on: [T9.md]\n'), remove('depends_on', 'T9'));
    assert.equal(out.after, flow('depends_on: []\n'));
    assert.deepEqual(out.list, []);
  });

  it('quoted items: the new one is quoted the same way, a quoted one is found and removed', () => {
    assert.equal(edit(flow('requirements: ["REQ-001"]\n'), add('requirements', 'REQ-002')).after, flow('requirements: ["REQ-001", "REQ-002"]\n'));
    assert.equal(edit(flow("requirements: ['REQ-001', 'REQ-002']\n"), remove('requirements', 'REQ-001')).after, flow("requirements: ['REQ-002']\n"));
  });

  it('a flow list over several lines gets the new item on a line of its own', () => {
    const text = flow('behavior_ids: [\n  REQ-001-B01,\n  REQ-001-B02\n]\n');
    const out = edit(text, add('behavior_ids', 'REQ-001-B03'));
    assert.equal(out.after, flow('behavior_ids: [\n  REQ-001-B01,\n  REQ-001-B02,\n  REQ-001-B03\n]\n'));
    assert.deepEqual(out.list, ['REQ-001-B01', 'REQ-001-B02', 'REQ-001-B03']);
    assert.equal(edit(text, remove('behavior_ids', 'REQ-001-B01')).after, flow('behavior_ids: [\n  REQ-001-B02\n]\n'));
  });

  it('a duplicate is removed everywhere it appears', () => {
    const out = edit(flow('behavior_ids: [REQ-009-B01, REQ-001-B01, REQ-009-B01]\n'), remove('behavior_ids', 'REQ-009-B01'));
    assert.deepEqual(out.list, ['REQ-001-B01']);
  });
});

describe('taskListEdits: a block list', () => {
  const block = (items: string) => `---\nowns:\n  - src/lock.ts\nbehavior_ids:\n${items}complexity: low\n---\n${BODY}`;

  it('adds a line after the last item, at its indent', () => {
    const out = edit(block('  - REQ-001-B01\n  - REQ-001-B02\n'), add('behavior_ids', 'REQ-001-B03'));
    assert.deepEqual(out.edits, [{ file: FILE, range: { start: { line: 7, column: 1 }, end: { line: 7, column: 1 } }, newText: '  - REQ-001-B03\n' }]);
    assert.equal(out.after, block('  - REQ-001-B01\n  - REQ-001-B02\n  - REQ-001-B03\n'));
  });

  it("items at the key's own indent, comments between items and after an item", () => {
    const out = edit(block('- REQ-001-B01  # the happy path\n# later\n- REQ-001-B02\n'), add('behavior_ids', 'REQ-001-B03'));
    assert.equal(out.after, block('- REQ-001-B01  # the happy path\n# later\n- REQ-001-B02\n- REQ-001-B03\n'));
    assert.deepEqual(edit(block('- REQ-001-B01  # the happy path\n- REQ-001-B02\n'), remove('behavior_ids', 'REQ-001-B01')).list, ['REQ-001-B02']);
  });

  it("removes an item's whole line", () => {
    const out = edit(block('  - REQ-001-B01\n  - REQ-009-B01\n  - REQ-001-B02\n'), remove('behavior_ids', 'REQ-009-B01'));
    assert.deepEqual(out.edits, [{ file: FILE, range: { start: { line: 6, column: 1 }, end: { line: 7, column: 1 } }, newText: '' }]);
    assert.equal(out.after, block('  - REQ-001-B01\n  - REQ-001-B02\n'));
  });

  it('removing the only item leaves key: [] (a bare key: would read as null)', () => {
    const out = edit(block('  - REQ-009-B01\n'), remove('behavior_ids', 'REQ-009-B01'));
    assert.equal(out.after, `---\nowns:\n  - src/lock.ts\nbehavior_ids: []\ncomplexity: low\n---\n${BODY}`);
    assert.deepEqual(out.list, []);
  });

  it('a key with no value (or null) becomes a flow list with the new item', () => {
    const empty = `---\nowns: [src/lock.ts]\nbehavior_ids:\ncomplexity: low\n---\n${BODY}`;
    assert.equal(edit(empty, add('behavior_ids', 'REQ-001-B01')).after, flow('behavior_ids: [REQ-001-B01]\n'));
    assert.equal(edit(empty.replace('behavior_ids:', 'behavior_ids: null'), add('behavior_ids', 'REQ-001-B01')).after, flow('behavior_ids: [REQ-001-B01]\n'));
  });
});

describe('taskListEdits: other shapes', () => {
  it('a missing key is added just before the closing ---', () => {
    const out = edit(flow(''), add('behavior_ids', 'REQ-001-B02'));
    assert.equal(out.after, `---\nowns: [src/lock.ts]\ncomplexity: low\nbehavior_ids: [REQ-001-B02]\n---\n${BODY}`);
    assert.deepEqual(out.list, ['REQ-001-B02']);
    assert.deepEqual(taskListEdits(FILE, flow(''), remove('behavior_ids', 'REQ-001-B02')), [], 'nothing to remove');
  });

  it('a lone scalar becomes a list when an item is added, [] when it is removed', () => {
    assert.equal(edit(flow('depends_on: T1\n'), add('depends_on', 'T2')).after, flow('depends_on: [T1, T2]\n'));
    assert.equal(edit(flow('depends_on: T1\n'), remove('depends_on', 'T1')).after, flow('depends_on: []\n'));
  });

  it('nothing to do: already there, or already absent', () => {
    assert.deepEqual(taskListEdits(FILE, flow('behavior_ids: [REQ-001-B01]\n'), add('behavior_ids', 'REQ-001-B01')), []);
    assert.deepEqual(taskListEdits(FILE, flow('behavior_ids: [REQ-001-B01]\n'), remove('behavior_ids', 'REQ-001-B02')), []);
  });

  it('CRLF line ends are kept, in block lists, new keys and flow lists', () => {
    const crlf = (s: string) => s.replace(/\n/g, '\r\n');
    const block = crlf(`---\nowns: [src/lock.ts]\nbehavior_ids:\n  - REQ-001-B01\ncomplexity: low\n---\n${BODY}`);
    const added = edit(block, add('behavior_ids', 'REQ-001-B02'));
    assert.equal(added.after, crlf(`---\nowns: [src/lock.ts]\nbehavior_ids:\n  - REQ-001-B01\n  - REQ-001-B02\ncomplexity: low\n---\n${BODY}`));
    assert.deepEqual(added.list, ['REQ-001-B01', 'REQ-001-B02']);
    assert.equal(edit(block, remove('behavior_ids', 'REQ-001-B01')).after, crlf(`---\nowns: [src/lock.ts]\nbehavior_ids: []\ncomplexity: low\n---\n${BODY}`));
    assert.equal(edit(crlf(flow('')), add('requirements', 'REQ-001')).after, crlf(`---\nowns: [src/lock.ts]\ncomplexity: low\nrequirements: [REQ-001]\n---\n${BODY}`));
    assert.equal(edit(crlf(flow('depends_on: [T1, T2]\n')), remove('depends_on', 'T2')).after, crlf(flow('depends_on: [T1]\n')));
  });

  it('a frontmatter that is never closed is refused, naming the file', () => {
    assert.throws(
      () => taskListEdits(FILE, '---\nbehavior_ids:\n  - REQ-001-B01', add('behavior_ids', 'REQ-001-B02')),
      (e: unknown) => e instanceof LoomError && /tasks\/T3\.md: the frontmatter opened on line 1 is never closed/.test(e.message),
    );
  });

  it('a file without frontmatter gets one; a nested list is refused with the file named', () => {
    assert.equal(edit(BODY, add('requirements', 'REQ-001')).after, `---\nrequirements: [REQ-001]\n---\n${BODY}`);
    assert.throws(
      () => taskListEdits(FILE, flow('behavior_ids: [[REQ-001-B01]]\n'), add('behavior_ids', 'X')),
      (e: unknown) => e instanceof LoomError && e.message.startsWith(`${FILE}: a nested list`),
    );
  });

  it('only the named key changes; keys that merely start alike are not touched', () => {
    const text = `---\nbehavior_ids_old: [REQ-001-B01]\nbehavior_ids: [REQ-001-B02]\n---\n${BODY}`;
    const out = edit(text, add('behavior_ids', 'REQ-001-B03'));
    assert.equal(out.after, `---\nbehavior_ids_old: [REQ-001-B01]\nbehavior_ids: [REQ-001-B02, REQ-001-B03]\n---\n${BODY}`);
  });
});
