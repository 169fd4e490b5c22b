import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { middleEllipsis, testLabel } from '../../webview-ui/matrix/testNames';

describe('a test as the matrix names it (testLabel)', () => {
  // The test's name is the ref's, after `#` or `::`.
  const ref = (r: string) => ({ ref: r });
  it('shows the file without folder, extension and .test/.spec, and the test without the row’s behavior id', () => {
    assert.deepEqual(testLabel(ref('tests/due/parseDueDate.test.js#REQ-001-B01 合法的'), 'REQ-001-B01'), { file: 'parseDueDate', name: '合法的' });
    assert.deepEqual(testLabel(ref('tests/test_login.py::test_ok'), 'REQ-001-B01'), { file: 'test_login', name: 'test_ok' });
    assert.deepEqual(testLabel(ref('pkg/clock_test.go'), 'B1'), { file: 'clock' });
    assert.deepEqual(testLabel(ref('tests/a.spec.ts#REQ-001-B01: logs in'), 'REQ-001-B01'), { file: 'a', name: 'logs in' });
    // Another behavior's id that starts with this one's is kept.
    assert.deepEqual(testLabel(ref('t/x.test.ts#REQ-001-B010 y'), 'REQ-001-B01'), { file: 'x', name: 'REQ-001-B010 y' });
    // Nothing but the id: the file alone.
    assert.deepEqual(testLabel(ref('t/x.test.ts#REQ-001-B01'), 'REQ-001-B01'), { file: 'x' });
  });

  it('cuts a name in its middle to the room, keeping more of its end', () => {
    const width = (text: string) => text.length * 10;
    assert.equal(middleEllipsis('parseDueDate', 120, width), 'parseDueDate');
    assert.equal(middleEllipsis('parseDueDate', 100, width), 'par…ueDate');
    assert.equal(middleEllipsis('parseDueDate', 60, width), 'pa…ate');
    assert.equal(middleEllipsis('parseDueDate', 5, width), '…');
  });
});
