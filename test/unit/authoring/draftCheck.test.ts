import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'node:test';
import { checkDrafts } from '../../../src/core/authoring/draftCheck';
import { AUTHORING } from '../../../src/core/authoring/stageCommands';
import { freshSpec, GOOD } from './authoringFixture';

const scratchDirs = (dir: string) => readdirSync(dir).filter((n) => n.startsWith('loom-draft-')).length;

test("good drafts pass each command's checks, and the spec on disk is left untouched", () => {
  // A temporary folder of the test's own: the unit tests' other processes make scratch copies in
  // the shared one at the same time (a count there failed in CI).
  const own = mkdtempSync(join(tmpdir(), 'loom-draftcheck-'));
  const shared = process.env.TMPDIR;
  process.env.TMPDIR = own;
  try {
    checkGoodDrafts();
    assert.equal(scratchDirs(own), 0, 'the scratch copies are removed');
  } finally {
    if (shared === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = shared;
    rmSync(own, { recursive: true, force: true });
  }
});

function checkGoodDrafts(): void {
  const s = freshSpec();
  try {
    assert.deepEqual(checkDrafts(s.root, s.specDir, AUTHORING.brainstorm, GOOD.brainstorm), []);
    const state = readFileSync(join(s.dir, 'pipeline.state.json'), 'utf8');
    assert.deepEqual(readdirSync(s.dir).sort(), ['pipeline.state.json', 'progress.md']);
    assert.equal(readFileSync(join(s.dir, 'pipeline.state.json'), 'utf8'), state);
  } finally {
    s.cleanup();
  }
  const e = freshSpec(GOOD.brainstorm);
  try {
    assert.deepEqual(checkDrafts(e.root, e.specDir, AUTHORING.expand, GOOD.expand), []);
  } finally {
    e.cleanup();
  }
  const p = freshSpec([GOOD.brainstorm[0], ...GOOD.expand]);
  try {
    assert.deepEqual(checkDrafts(p.root, p.specDir, AUTHORING.plan, GOOD.plan), []);
  } finally {
    p.cleanup();
  }
}

test('brainstorm: ids that disagree, broken JSON, paths it may not write and cut-off blocks are each named', () => {
  const s = freshSpec();
  try {
    const spec = { path: 'spec.md', content: '# X\n\n## REQ-001 a\n\n## REQ-003 c\n', complete: true };
    const reqs = { ...GOOD.brainstorm[1] };
    assert.deepEqual(checkDrafts(s.root, s.specDir, AUTHORING.brainstorm, [spec, reqs]), [
      'spec.md names REQ-003 but requirements.json does not declare it',
      'requirements.json declares REQ-002 but spec.md does not name it',
    ]);
    const broken = { path: 'requirements.json', content: '{ "requirements": [ }\n', complete: true };
    const problems = checkDrafts(s.root, s.specDir, AUTHORING.brainstorm, [GOOD.brainstorm[0], broken]);
    assert.ok(
      problems.some((p) => /^requirements\.json:1: /.test(p)),
      problems.join('\n'),
    );
    assert.deepEqual(
      checkDrafts(s.root, s.specDir, AUTHORING.brainstorm, [...GOOD.brainstorm, { path: '../escape.md', content: 'x\n', complete: true }, { path: 'plan.md', content: '# p\n', complete: false }]),
      ['../escape.md is not a file /brainstorm may write (only spec.md, requirements.json)', 'plan.md is not a file /brainstorm may write (only spec.md, requirements.json)'],
    );
    assert.deepEqual(checkDrafts(s.root, s.specDir, AUTHORING.brainstorm, [{ ...GOOD.brainstorm[0], complete: false }, GOOD.brainstorm[1]]), [
      'spec.md was cut off: its block has no "=== END FILE ===" line',
      'spec.md does not exist',
    ]);
    assert.deepEqual(checkDrafts(s.root, s.specDir, AUTHORING.brainstorm, []), ['no file was written (expected spec.md, requirements.json)']);
  } finally {
    s.cleanup();
  }
});

test('expand: a required category without a behavior and a missing test_plan fail detail-expansion-pass', () => {
  const s = freshSpec(GOOD.brainstorm);
  try {
    const ledger = JSON.parse(GOOD.expand[0].content);
    ledger.requirements[0].behaviors.splice(1, 1); // drops the invalid-input behavior REQ-001 requires
    delete ledger.requirements[1].behaviors[0].test_plan;
    const problems = checkDrafts(s.root, s.specDir, AUTHORING.expand, [{ path: 'requirements.json', content: JSON.stringify(ledger, null, 2), complete: true }]);
    assert.equal(problems.length, 2, problems.join('\n'));
    assert.match(problems[0], /REQ-001.*invalid-input/);
    assert.match(problems[1], /REQ-002-B01.*test_plan/);
  } finally {
    s.cleanup();
  }
});

test('plan: a behavior no task implements and a task naming an unknown behavior are named', () => {
  const s = freshSpec([GOOD.brainstorm[0], ...GOOD.expand]);
  try {
    const t2 = GOOD.plan[2].content.replace('behavior_ids: [REQ-002-B01, REQ-002-B02]', 'behavior_ids: [REQ-002-B01, REQ-002-B09]');
    const drafts = GOOD.plan.map((d) => (d.path === 'tasks/T2.md' ? { ...d, content: t2 } : d));
    const problems = checkDrafts(s.root, s.specDir, AUTHORING.plan, drafts);
    assert.ok(
      problems.some((p) => p.includes('REQ-002-B02')),
      problems.join('\n'),
    );
    assert.ok(
      problems.some((p) => p.includes('T2 names behavior REQ-002-B09, which requirements.json does not declare')),
      problems.join('\n'),
    );
  } finally {
    s.cleanup();
  }
});
