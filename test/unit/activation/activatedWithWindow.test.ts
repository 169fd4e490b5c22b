import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { activatedWithWindow } from '../../../src/host/activatedWithWindow';

const tmp = mkdtempSync(join(tmpdir(), 'loom-window-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** A folder with `files` (paths relative to it; a trailing / makes a directory). */
function folder(name: string, files: string[]): string {
  const root = join(tmp, name);
  mkdirSync(root, { recursive: true });
  for (const f of files) {
    if (f.endsWith('/')) mkdirSync(join(root, f), { recursive: true });
    else {
      mkdirSync(join(root, f, '..'), { recursive: true });
      writeFileSync(join(root, f), '');
    }
  }
  return root;
}

test("a folder with what package.json's workspaceContains events look for opened the window on a loom repository", () => {
  assert.equal(activatedWithWindow([folder('workflow', ['.loom/workflow.yaml'])]), true);
  assert.equal(activatedWithWindow([folder('state', ['specs/2026-11-28+tags/pipeline.state.json'])]), true);
  assert.equal(activatedWithWindow([folder('spec', ['specs/2026-11-28+tags/spec.md'])]), true);
  assert.equal(activatedWithWindow([folder('qa', ['qa/2026-11-28+login/pipeline.state.json'])]), true);
  assert.equal(activatedWithWindow([folder('plain', ['README.md']), folder('second', ['.loom/workflow.yaml'])]), true, 'any folder');
});

test('elsewhere Loom was activated for a command, a chat request or a tool: a specs/ folder of something else does not count', () => {
  assert.equal(activatedWithWindow([]), false);
  assert.equal(activatedWithWindow([folder('empty', [])]), false);
  assert.equal(activatedWithWindow([join(tmp, 'no-such-folder')]), false);
  assert.equal(activatedWithWindow([folder('rspec', ['specs/models/user_spec.rb', 'specs/helpers/'])]), false);
  assert.equal(activatedWithWindow([folder('file', ['specs'])]), false, 'specs is a file');
  assert.equal(activatedWithWindow([folder('loose', ['.loom/', 'specs/spec.md'])]), false, 'spec.md must be in a spec directory');
});
