import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { readTeamRules } from '../../../src/core/pipeline/teamRules';

function repoWith(settings?: string): { root: string; done: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'loom-rules-'));
  if (settings !== undefined) {
    mkdirSync(join(root, '.vscode'));
    writeFileSync(join(root, '.vscode', 'settings.json'), settings);
  }
  return { root, done: () => rmSync(root, { recursive: true, force: true }) };
}

test("the team's rule is read from .vscode/settings.json as VS Code reads it: comments and trailing commas allowed", () => {
  const r = repoWith('{\n  // the team asks for answered reviews\n  "loom.review.blockOnOpenThreads": true,\n}\n');
  try {
    assert.deepEqual(readTeamRules(r.root), { blockOnOpenThreads: true, requirePerson: false });
  } finally {
    r.done();
  }
});

test('nested objects are read too; no file, no rule, or a value of the wrong type leaves the default', () => {
  for (const [text, expected] of [
    ['{ "loom": { "review": { "blockOnOpenThreads": true } } }', true],
    ['{ "loom.review.blockOnOpenThreads": "yes" }', false],
    ['{ "editor.tabSize": 2 }', false],
    ['{ "loom.review.blockOnOpenThreads": tru', false],
    [undefined, false],
  ] as const) {
    const r = repoWith(text);
    try {
      assert.equal(readTeamRules(r.root).blockOnOpenThreads, expected, String(text));
    } finally {
      r.done();
    }
  }
});

test('loom.approvals.requirePerson is read the same way, beside the other rule', () => {
  for (const [text, expected] of [
    ['{\n  // people approve\n  "loom.approvals.requirePerson": true,\n}', true],
    ['{ "loom": { "approvals": { "requirePerson": true } } }', true],
    ['{ "loom.approvals.requirePerson": "true" }', false],
    ['{ "loom.review.blockOnOpenThreads": true }', false],
    [undefined, false],
  ] as const) {
    const r = repoWith(text);
    try {
      assert.equal(readTeamRules(r.root).requirePerson, expected, String(text));
    } finally {
      r.done();
    }
  }
});
