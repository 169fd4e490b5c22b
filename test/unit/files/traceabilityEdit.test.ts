import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LoomError } from '../../../src/core/errors';
import { applyTextEdits } from '../../helpers/textEdits';
import { normalizeTraceability, TraceabilityFileSchema } from '../../../src/core/files/traceability';
import { traceabilityEdits, type TraceabilityChange } from '../../../src/core/files/traceabilityEdit';

const FILE = 'specs/2026-11-29+login/traceability.json';

/** The file after the edits, the edits, and the ledger the core reads back from it. */
function edit(text: string, change: TraceabilityChange) {
  const edits = traceabilityEdits(FILE, text, change);
  const after = applyTextEdits(text, edits);
  const parsed = TraceabilityFileSchema().safeParse(JSON.parse(after.replace(/^\uFEFF/, '')));
  assert.ok(parsed.success, `the edited file reads:\n${after}`);
  return { after, edits, ledger: normalizeTraceability(parsed.data) };
}

const addTasks = (requirement: string, behavior: string | undefined, ...tasks: string[]): TraceabilityChange => ({ op: 'add-tasks', requirement, ...(behavior ? { behavior } : {}), tasks });
const removeTasks = (requirement: string, behavior: string | undefined, ...tasks: string[]): TraceabilityChange => ({ op: 'remove-tasks', requirement, ...(behavior ? { behavior } : {}), tasks });

const trace = (tasks: string[], behaviors?: Record<string, object>) => ({ tasks, tests: [], evidence: [], ...(behaviors ? { behaviors } : {}) });
/** As loom writes it: JSON.stringify with two spaces and a final line break. */
const written = (value: unknown, indent: string | number = 2) => `${JSON.stringify(value, null, indent)}\n`;

/** REQ-001 traced to T1 with B01 (T1) and B03 (nothing yet); REQ-003 traced to T3. */
const LEDGER = {
  requirements: {
    'REQ-001': trace(['T1'], { 'REQ-001-B01': trace(['T1']), 'REQ-001-B03': trace([]) }),
    'REQ-003': trace(['T3'], { 'REQ-003-B01': trace(['T3']) }),
  },
};

describe('traceabilityEdits: tasks of a behavior or requirement', () => {
  it('fills an empty list of a file written by JSON.stringify, one replacement of the []', () => {
    const text = written(LEDGER);
    const out = edit(text, addTasks('REQ-001', 'REQ-001-B03', 'T1', 'T2'));
    assert.deepEqual(out.edits, [{ file: FILE, range: { start: { line: 18, column: 20 }, end: { line: 18, column: 22 } }, newText: '[\n            "T1",\n            "T2"\n          ]' }]);
    const expected = structuredClone(LEDGER);
    expected.requirements['REQ-001'].behaviors!['REQ-001-B03'] = trace(['T1', 'T2']);
    assert.equal(out.after, written(expected));
  });

  it('appends to a list with items after the last one, with its separator and indentation', () => {
    const out = edit(written(LEDGER), addTasks('REQ-001', undefined, 'T2'));
    assert.deepEqual(
      out.edits.map((e) => e.newText),
      [',\n        "T2"'],
    );
    const expected = structuredClone(LEDGER);
    expected.requirements['REQ-001'].tasks.push('T2');
    assert.equal(out.after, written(expected));
  });

  it('keeps lists written on one line on one line', () => {
    const text =
      '{\n  "requirements": {\n    "REQ-001": { "tasks": ["T1"], "tests": [], "evidence": [],\n      "behaviors": { "REQ-001-B01": { "tasks": [], "tests": [], "evidence": [] } } }\n  }\n}\n';
    assert.equal(edit(text, addTasks('REQ-001', undefined, 'T2')).after, text.replace('["T1"]', '["T1", "T2"]'));
    assert.equal(edit(text, addTasks('REQ-001', 'REQ-001-B01', 'T1')).after, text.replace('"REQ-001-B01": { "tasks": []', '"REQ-001-B01": { "tasks": ["T1"]'));
  });

  it('adds a behavior the requirement does not trace yet in id order, indented like its siblings', () => {
    const out = edit(written(LEDGER), addTasks('REQ-001', 'REQ-001-B02', 'T1'));
    const expected = {
      requirements: {
        'REQ-001': trace(['T1'], { 'REQ-001-B01': trace(['T1']), 'REQ-001-B02': trace(['T1']), 'REQ-001-B03': trace([]) }),
        'REQ-003': LEDGER.requirements['REQ-003'],
      },
    };
    assert.equal(out.after, written(expected));
    assert.equal(out.edits.length, 1);
    assert.equal(out.edits[0].range.start.line, out.edits[0].range.end.line, 'an insertion, nothing replaced');
  });

  it('adds the behaviors object when the requirement has none, after its other keys', () => {
    const text = written({ requirements: { 'REQ-001': trace(['T1']) } });
    assert.equal(edit(text, addTasks('REQ-001', 'REQ-001-B01', 'T1')).after, written({ requirements: { 'REQ-001': trace(['T1'], { 'REQ-001-B01': trace(['T1']) }) } }));
  });

  it('edits the task_ids alias loom also reads, and puts a missing tasks list before tests', () => {
    const alias = written({ requirements: { 'REQ-001': { task_ids: ['T1'], tests: [] } } });
    assert.equal(edit(alias, addTasks('REQ-001', undefined, 'T2')).after, written({ requirements: { 'REQ-001': { task_ids: ['T1', 'T2'], tests: [] } } }));
    const none = written({ requirements: { 'REQ-001': { tests: [], evidence: [] } } });
    assert.equal(edit(none, addTasks('REQ-001', undefined, 'T2')).after, written({ requirements: { 'REQ-001': { tasks: ['T2'], tests: [], evidence: [] } } }));
  });

  it('writes task references as the file does (T1.md) and skips tasks already there in either form', () => {
    const text = written({ requirements: { 'REQ-001': trace(['T1.md'], { 'REQ-001-B01': trace([]) }) } });
    assert.equal(edit(text, addTasks('REQ-001', 'REQ-001-B01', 'T2')).after, written({ requirements: { 'REQ-001': trace(['T1.md'], { 'REQ-001-B01': trace(['T2.md']) }) } }));
    assert.deepEqual(traceabilityEdits(FILE, text, addTasks('REQ-001', undefined, 'T1', 't1')), [], 'T1 is T1.md: nothing to do');
    assert.deepEqual(edit(text, addTasks('REQ-001', undefined, 'T1', 'T2')).ledger.requirements[0].tasks, ['T1.md', 'T2.md']);
  });

  it('keeps tab indentation and CRLF line ends', () => {
    const crlf = (s: string) => s.replace(/\n/g, '\r\n');
    const text = crlf(written({ requirements: { 'REQ-001': trace([], { 'REQ-001-B01': trace(['T1']) }) } }, '\t'));
    const out = edit(text, addTasks('REQ-001', undefined, 'T1'));
    assert.equal(out.after, crlf(written({ requirements: { 'REQ-001': trace(['T1'], { 'REQ-001-B01': trace(['T1']) }) } }, '\t')));
  });

  it('removes a reference with the separator that goes with it; the last one leaves []', () => {
    const text = written({ requirements: { 'REQ-001': trace(['T1', 'T7.md', 'T2'], { 'REQ-001-B01': trace(['T7']) }) } });
    assert.equal(edit(text, removeTasks('REQ-001', undefined, 'T7.md')).after, written({ requirements: { 'REQ-001': trace(['T1', 'T2'], { 'REQ-001-B01': trace(['T7']) }) } }));
    assert.equal(edit(text, removeTasks('REQ-001', undefined, 'T2')).after, written({ requirements: { 'REQ-001': trace(['T1', 'T7.md'], { 'REQ-001-B01': trace(['T7']) }) } }));
    const emptied = edit(text, removeTasks('REQ-001', 'REQ-001-B01', 'T7'));
    assert.match(emptied.after, /"REQ-001-B01": \{\n {10}"tasks": \[\],\n/);
    assert.deepEqual(emptied.ledger.requirements[0].behaviors!['REQ-001-B01'].tasks, []);
    const inline = '{"requirements": {"REQ-001": {"tasks": ["T1", "T7", "T2"]}}}';
    assert.equal(edit(inline, removeTasks('REQ-001', undefined, 'T7')).after, '{"requirements": {"REQ-001": {"tasks": ["T1", "T2"]}}}');
  });

  it('has nothing to do when the reference or its trace is already gone', () => {
    const text = written(LEDGER);
    assert.deepEqual(traceabilityEdits(FILE, text, removeTasks('REQ-001', undefined, 'T9')), []);
    assert.deepEqual(traceabilityEdits(FILE, text, removeTasks('REQ-001', 'REQ-001-B09', 'T9')), []);
    assert.deepEqual(traceabilityEdits(FILE, text, removeTasks('REQ-009', undefined, 'T9')), []);
    assert.deepEqual(traceabilityEdits(FILE, text, addTasks('REQ-001', 'REQ-001-B01', 'T1')), []);
  });
});

describe('traceabilityEdits: a requirement traceability.json lacks', () => {
  const addRequirement = (requirement: string, tasks: string[], behaviors: { id: string; tasks: string[] }[]): TraceabilityChange => ({ op: 'add-requirement', requirement, tasks, behaviors });

  it('goes between its neighbours in the object form, with its behaviors and empty tests and evidence', () => {
    const out = edit(
      written(LEDGER),
      addRequirement(
        'REQ-002',
        ['T2'],
        [
          { id: 'REQ-002-B01', tasks: ['T2'] },
          { id: 'REQ-002-B02', tasks: [] },
        ],
      ),
    );
    const expected = {
      requirements: {
        'REQ-001': LEDGER.requirements['REQ-001'],
        'REQ-002': trace(['T2'], { 'REQ-002-B01': trace(['T2']), 'REQ-002-B02': trace([]) }),
        'REQ-003': LEDGER.requirements['REQ-003'],
      },
    };
    assert.equal(out.after, written(expected));
    assert.equal(out.edits.length, 1);
  });

  it('goes last, with its id first, in the array form; after REQ-009 comes REQ-010', () => {
    const array = {
      requirements: [
        { id: 'REQ-001', ...trace(['T1']) },
        { id: 'REQ-009', ...trace(['T9']) },
      ],
    };
    const out = edit(written(array), addRequirement('REQ-010', [], []));
    assert.equal(out.after, written({ requirements: [...array.requirements, { id: 'REQ-010', ...trace([], {}) }] }));
  });

  it('goes at the end when the file does not keep its requirements in order', () => {
    const text = written({ requirements: { 'REQ-003': trace(['T3']), 'REQ-001': trace(['T1']) } });
    assert.deepEqual(Object.keys(JSON.parse(edit(text, addRequirement('REQ-002', ['T2'], [])).after).requirements), ['REQ-003', 'REQ-001', 'REQ-002']);
  });

  it('fills an empty requirements object, and is nothing to do when the requirement is traced', () => {
    assert.equal(edit(written({ requirements: {} }), addRequirement('REQ-001', ['T1'], [])).after, written({ requirements: { 'REQ-001': trace(['T1'], {}) } }));
    assert.deepEqual(traceabilityEdits(FILE, written(LEDGER), addRequirement('REQ-003', ['T3'], [])), []);
  });

  it('writes a one-line file on one line', () => {
    const text = '{"requirements":{"REQ-001":{"tasks":["T1"],"tests":[],"evidence":[]}}}';
    assert.equal(
      edit(text, addRequirement('REQ-002', ['T2'], [])).after,
      '{"requirements":{"REQ-001":{"tasks":["T1"],"tests":[],"evidence":[]},"REQ-002":{"tasks":["T2"],"tests":[],"evidence":[],"behaviors":{}}}}',
    );
  });
});

describe('traceabilityEdits: what cannot be edited', () => {
  it('refuses JSON that does not parse, naming the file', () => {
    assert.throws(
      () => traceabilityEdits(FILE, '{ "requirements": { "REQ-001": ', addTasks('REQ-001', undefined, 'T1')),
      (e: unknown) => e instanceof LoomError && e.message === `${FILE} is not valid JSON, so it cannot be edited automatically` && e.file === FILE,
    );
  });

  it('refuses shapes the change cannot be made in', () => {
    const refuses = (text: string, change: TraceabilityChange, message: string) =>
      assert.throws(
        () => traceabilityEdits(FILE, text, change),
        (e: unknown) => e instanceof LoomError && e.message === `${FILE}${message}`,
      );
    refuses('{"requirements": 3}', addTasks('REQ-001', undefined, 'T1'), ' has no requirements object or list to edit');
    refuses('{"requirements": {}}', addTasks('REQ-001', undefined, 'T1'), ' does not trace REQ-001: add the requirement first');
    refuses('{"requirements": {"REQ-001": {"tasks": "T1"}}}', addTasks('REQ-001', undefined, 'T2'), ': the tasks of REQ-001 are not a list');
    refuses('{"requirements": {"REQ-001": {"behaviors": []}}}', addTasks('REQ-001', 'REQ-001-B01', 'T2'), ': the behaviors of REQ-001 are not an object');
  });
});
