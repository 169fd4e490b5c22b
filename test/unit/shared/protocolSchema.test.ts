import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSafeRelativePath, parsePersistedViewState, parseWebviewMessage } from '../../../src/shared/protocolSchema';
import type { WebviewMessage } from '../../../src/shared/protocol';

const SPEC = 'specs/2026-11-29+login';

describe('webview → host messages', () => {
  const valid: WebviewMessage[] = [
    { type: 'ready', view: 'dashboard', protocol: 2 },
    { type: 'ready', view: 'matrix', protocol: 2 },
    { type: 'openFile', path: `${SPEC}/tasks/T1.md` },
    { type: 'openFile', path: 'tests/login.test.ts', line: 12, testName: 'logs the user in' },
    { type: 'runCommand', specDir: SPEC, command: 'advance' },
    { type: 'runCommand', specDir: SPEC, command: 'advance', args: { to: 'executing' } },
    { type: 'runCommand', specDir: SPEC, command: 'approve' },
    { type: 'runCommand', specDir: SPEC, command: 'markFailed' },
    { type: 'runCommand', specDir: SPEC, command: 'recover', args: { to: 'planning' } },
    { type: 'runCommand', specDir: SPEC, command: 'breakerChoice', args: { taskId: 'T3', choice: 'C' } },
    { type: 'runCommand', specDir: SPEC, command: 'showTranscripts' },
    { type: 'runCommand', specDir: SPEC, command: 'showTranscripts', args: { taskId: 'T2' } },
    { type: 'exportMatrix', specDir: SPEC, format: 'csv' },
    { type: 'exportMatrix', specDir: SPEC, format: 'markdown', behaviors: ['REQ-001-B01'] },
    { type: 'openMatrix', specDir: SPEC },
  ];
  for (const message of valid) {
    it(`accepts ${JSON.stringify(message)}`, () => {
      assert.deepEqual(parseWebviewMessage(message), { ok: true, message });
    });
  }

  const invalid: [string, unknown][] = [
    ['not an object', 'ready'],
    ['an unknown type', { type: 'deleteEverything' }],
    ['another protocol version', { type: 'ready', view: 'matrix', protocol: 1 }],
    ['an unknown view', { type: 'ready', view: 'settings', protocol: 2 }],
    ['an extra key', { type: 'openFile', path: 'a.ts', command: 'rm -rf' }],
    ['an absolute path', { type: 'openFile', path: '/etc/passwd' }],
    ['a Windows drive', { type: 'openFile', path: 'C:/Windows/win.ini' }],
    ['a path leaving the repository', { type: 'openFile', path: 'specs/../../secret' }],
    ['backslashes', { type: 'openFile', path: 'specs\\x' }],
    ['a line of 0', { type: 'openFile', path: 'a.ts', line: 0 }],
    ['an unknown command', { type: 'runCommand', specDir: SPEC, command: 'deleteSpec' }],
    ['recover without a stage', { type: 'runCommand', specDir: SPEC, command: 'recover' }],
    ['arguments to markFailed', { type: 'runCommand', specDir: SPEC, command: 'markFailed', args: { reason: 'x' } }],
    ['a breaker choice D', { type: 'runCommand', specDir: SPEC, command: 'breakerChoice', args: { taskId: 'T3', choice: 'D' } }],
    ['a task id that is not one', { type: 'runCommand', specDir: SPEC, command: 'breakerChoice', args: { taskId: '../T3', choice: 'A' } }],
    ['transcripts of a task id that is not one', { type: 'runCommand', specDir: SPEC, command: 'showTranscripts', args: { taskId: 'T1; rm' } }],
    ['a spec outside the repository', { type: 'openMatrix', specDir: '../other' }],
    ['an unknown export format', { type: 'exportMatrix', specDir: SPEC, format: 'xlsx' }],
  ];
  for (const [what, data] of invalid) {
    it(`rejects ${what}`, () => {
      const r = parseWebviewMessage(data);
      assert.equal(r.ok, false);
      if (!r.ok) assert.ok(r.error.length > 0);
    });
  }

  it('names the first problem for the log', () => {
    const r = parseWebviewMessage({ type: 'openFile', path: '/etc/passwd' });
    assert.deepEqual(r, { ok: false, error: 'path: must be a repository-relative path inside the repository' });
  });
});

describe('paths', () => {
  it('accepts repository-relative paths, including names with dots', () => {
    for (const p of ['a.ts', 'specs/x/tasks/T1.md', '.loom/workflow.yaml', 'a/..b/c', 'specs/2026+x/evidence/run.log']) assert.ok(isSafeRelativePath(p), p);
  });
  it('rejects everything that could leave the repository', () => {
    for (const p of ['', '/a', '..', 'a/../..', 'C:x', 'a\\b', 'a\0b', 'x'.repeat(1025)]) assert.ok(!isSafeRelativePath(p), JSON.stringify(p));
  });
});

describe('persisted state', () => {
  it('gives the serializer the view and spec to reopen, keeping UI details opaque', () => {
    assert.deepEqual(parsePersistedViewState({ view: 'matrix', specDir: SPEC, ui: { scrollTop: 40 } }), { view: 'matrix', specDir: SPEC, ui: { scrollTop: 40 } });
  });
  it('ignores a state that is not ours', () => {
    assert.equal(parsePersistedViewState(undefined), undefined);
    assert.equal(parsePersistedViewState({ view: 'matrix' }), undefined);
    assert.equal(parsePersistedViewState({ view: 'matrix', specDir: '/abs' }), undefined);
  });
});
