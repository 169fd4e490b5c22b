import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadSpec } from '../../../src/core/specdir/loadSpec';
import { SPEC, state, TempRepo } from '../../helpers/tempRepo';

// Issue #11 point 9: loom 3 lists task files with /^T\d+\.md$/i and takes the id from the file
// name with its case kept (pipeline-engine.js listTaskIds, taskIdFromFilename).

test('task files are matched without regard to case, as loom lists them; other files in tasks/ are not tasks', () => {
  const r = new TempRepo();
  try {
    r.write(`${SPEC}/pipeline.state.json`, state('executing'));
    r.write(`${SPEC}/tasks/T1.md`, '---\nowns: [src/a.ts]\n---\n# T1\n');
    r.write(`${SPEC}/tasks/t2.md`, '---\nowns: [src/b.ts]\n---\n# t2\n');
    r.write(`${SPEC}/tasks/T3.MD`, '---\nowns: [src/c.ts]\n---\n# T3\n');
    r.write(`${SPEC}/tasks/notes.md`, '# not a task\n');
    const snapshot = loadSpec(r.root, r.path(SPEC));
    assert.deepEqual([...snapshot.tasks.keys()].sort(), ['T1', 'T3', 't2']);
  } finally {
    r.dispose();
  }
});
