import assert from 'node:assert/strict';
import { it } from 'node:test';
import { TreeExpansion } from '../../../src/host/tree/treeExpansion';

const SPEC_A = 'spec:/ws/specs/2026-11-20+a';
const stagesOf = (spec: string) => ['brainstorming', 'detail-expansion', 'planning', 'git-worktree', 'executing'].map((s) => `stage:${spec.slice(5)}:${s}`);

it('a row the person opened is drawn open again when the tree is redrawn; closed again once they close it', () => {
  const rows = new TreeExpansion();
  assert.equal(rows.shape(SPEC_A, 'collapsed'), 'collapsed');
  rows.expanded(SPEC_A, true);
  assert.equal(rows.shape(SPEC_A, 'collapsed'), 'expanded', 'after Ctrl+B hid and showed the side bar');
  rows.expanded(SPEC_A, false);
  assert.equal(rows.shape(SPEC_A, 'collapsed'), 'collapsed');
});

it('a run going through the stages opens none of them: stages drawn as leaves, then given outputs, stay closed', () => {
  const rows = new TreeExpansion();
  rows.shape(SPEC_A, 'collapsed');
  rows.expanded(SPEC_A, true);
  // Each stage row drawn without children (no outputs, no handoff yet) ...
  for (const id of stagesOf(SPEC_A)) rows.shape(id, 'leaf');
  // ... VS Code reports them expanded when the run's handoffs give them children ...
  for (const id of stagesOf(SPEC_A)) rows.expanded(id, true);
  // ... and the redraw after the run's next change draws them closed.
  for (const id of stagesOf(SPEC_A)) assert.equal(rows.shape(id, 'collapsed'), 'collapsed', id);
  assert.equal(rows.shape(SPEC_A, 'collapsed'), 'expanded', 'the spec the person opened stays open');
});

it("another spec's rows keep their shape: rows never drawn are not opened by an expand event", () => {
  const rows = new TreeExpansion();
  const other = stagesOf('spec:/ws/specs/2026-11-21+b');
  for (const id of other) rows.expanded(id, true);
  for (const id of other) assert.equal(rows.shape(id, 'collapsed'), 'collapsed', id);
});

it('a stage the person opened stays open; a leaf stays a leaf and a row drawn expanded by default stays so', () => {
  const rows = new TreeExpansion();
  const [first, second] = stagesOf(SPEC_A);
  rows.shape(first, 'collapsed');
  rows.expanded(first, true);
  assert.equal(rows.shape(first, 'collapsed'), 'expanded');
  assert.equal(rows.shape(second, 'leaf'), 'leaf');
  assert.equal(rows.shape('group:in-progress', 'expanded'), 'expanded');
  assert.equal(rows.isOpen(second), false);
});
