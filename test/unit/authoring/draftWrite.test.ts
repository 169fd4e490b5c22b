import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'node:test';
import { describeChanges, draftBase, writeDrafts } from '../../../src/core/authoring/draftWrite';
import { AUTHORING } from '../../../src/core/authoring/stageCommands';
import { HandoffSchema } from '../../../src/core/files/handoff';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { freshSpec, GOOD } from './authoringFixture';

/** The spec as the extension holds it: its actor writes the handoffs. */
const specOf = (root: string, specDir: string) => new LoomRepository(root).load().get(specDir)!;

const NOW = '2026-11-30T10:00:00.000Z';

test('accepted drafts are written with the stage handoff, and the spec can then leave brainstorming', () => {
  const s = freshSpec();
  try {
    const base = draftBase(s.dir, GOOD.brainstorm);
    assert.deepEqual(base, { 'spec.md': null, 'requirements.json': null });
    const r = writeDrafts(specOf(s.root, s.specDir), AUTHORING.brainstorm, GOOD.brainstorm, base, 'Approach A: tags on the todo.', NOW);
    assert.deepEqual(r, { written: ['spec.md', 'requirements.json'], handoff: 'handoffs/brainstorming.json' });
    assert.equal(readFileSync(join(s.dir, 'spec.md'), 'utf8'), GOOD.brainstorm[0].content);
    const handoff = HandoffSchema().parse(JSON.parse(readFileSync(join(s.dir, r.handoff), 'utf8')));
    assert.deepEqual(
      [handoff.stage, handoff.status, handoff.summary, handoff.artifacts, handoff.written_at],
      ['brainstorming', 'done', 'Approach A: tags on the todo.', ['spec.md', 'requirements.json'], NOW],
    );
    assert.equal(existsSync(join(s.dir, '.loom-run.lock')), false, 'the run lock is released');
    const spec = new LoomRepository(s.root).load().get(s.specDir)!;
    assert.deepEqual(
      spec.next().map((t) => [t.to, t.ready]),
      [['detail-expansion', true]],
    );
  } finally {
    s.cleanup();
  }
});

test('a file changed on disk since the draft was made is never overwritten, and nothing is written', () => {
  const s = freshSpec(GOOD.brainstorm);
  try {
    const drafts = [{ ...GOOD.brainstorm[0], content: `${GOOD.brainstorm[0].content}\nMore.\n` }, GOOD.expand[0]];
    const base = draftBase(s.dir, drafts);
    writeFileSync(join(s.dir, 'spec.md'), '# edited by hand meanwhile\n');
    assert.throws(() => writeDrafts(specOf(s.root, s.specDir), AUTHORING.expand, drafts, base, '', NOW), /spec\.md is not a file \/expand may write/);
    assert.throws(() => writeDrafts(specOf(s.root, s.specDir), AUTHORING.brainstorm, drafts, base, '', NOW), /spec\.md changed since @loom drafted it; nothing was written/);
    assert.equal(readFileSync(join(s.dir, 'spec.md'), 'utf8'), '# edited by hand meanwhile\n');
    assert.equal(readFileSync(join(s.dir, 'requirements.json'), 'utf8'), GOOD.brainstorm[1].content);
  } finally {
    s.cleanup();
  }
});

test('describeChanges tells new, changed and unchanged files apart with line counts', () => {
  const s = freshSpec([GOOD.brainstorm[0]]);
  try {
    const changed = { path: 'spec.md', content: GOOD.brainstorm[0].content.replace('## Non-goals', '## Out of scope'), complete: true };
    assert.deepEqual(describeChanges(s.dir, [changed, GOOD.brainstorm[1]]), [
      { path: 'spec.md', kind: 'changed', added: 1, removed: 1 },
      { path: 'requirements.json', kind: 'new', added: GOOD.brainstorm[1].content.split('\n').length - 1, removed: 0 },
    ]);
    assert.deepEqual(describeChanges(s.dir, [GOOD.brainstorm[0]]), [{ path: 'spec.md', kind: 'unchanged', added: 0, removed: 0 }]);
  } finally {
    s.cleanup();
  }
});
