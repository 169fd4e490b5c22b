import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'node:test';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { checkStage } from '../../helpers/intents';
import { freshSpec, GOOD } from '../authoring/authoringFixture';
import { moveOn } from '../../helpers/intents';
import { state } from '../../helpers/tempRepo';

for (const language of ['en', 'zh'] as const)
  test(`Check Stage at analyze-artifacts runs the analysis even when the workflow does not declare it, and hands over (a spec in ${language === 'en' ? 'English' : 'Chinese'})`, () => {
    // The handoff's summary is for loom's agents: in the spec's language (spec.md), whatever the display language.
    const specMd =
      language === 'en' ? GOOD.brainstorm[0] : { ...GOOD.brainstorm[0], content: `${'本功能让用户为待办事项设置截止日期，并按日期排序查看。'.repeat(8)}\n\n${GOOD.brainstorm[0].content}` };
    const s = freshSpec([
      specMd,
      ...GOOD.expand,
      ...GOOD.plan,
      { path: 'handoffs/detail-expansion.json', content: '{"stage":"detail-expansion","status":"done","summary":"x","artifacts":[]}\n', complete: true },
      { path: 'handoffs/planning.json', content: '{"stage":"planning","status":"done","summary":"x","artifacts":[]}\n', complete: true },
    ]);
    try {
      mkdirSync(join(s.root, '.loom'));
      cpSync(join(__dirname, '..', '..', 'fixtures', 'workspace-chat', '.loom', 'workflow.yaml'), join(s.root, '.loom', 'workflow.yaml'));
      const spec = () => new LoomRepository(s.root).load().get(s.specDir)!;
      // Brainstorming and planning are human-approval gates in this workflow: Approve passes them, Advance never does.
      for (let i = 0; i < 3; i++) moveOn(spec, { compressionConfirmed: true });
      assert.equal(spec().stage, 'analyze-artifacts');
      // The step declares only handoffs/analyze-artifacts.json (loom's checkStageOutputs); the schema's artifact-analysis.json is advice.
      assert.deepEqual(spec().next()[0].unmet, ['handoffs/analyze-artifacts.json does not exist']);
      assert.deepEqual(spec().next()[0].advice, ['artifact-analysis.json does not exist']);

      const result = checkStage(spec(), '2026-11-30T12:00:00.000Z');
      assert.deepEqual([result.passed, result.validators.map((v) => v.name), result.handoff], [true, ['artifact-analysis-pass'], 'handoffs/analyze-artifacts.json']);
      const handoff = JSON.parse(readFileSync(join(s.dir, 'handoffs', 'analyze-artifacts.json'), 'utf8'));
      assert.deepEqual([handoff.stage, handoff.status, handoff.artifacts, handoff.written_at], ['analyze-artifacts', 'done', ['artifact-analysis.json'], '2026-11-30T12:00:00.000Z']);
      assert.equal(handoff.summary, language === 'en' ? 'artifact-analysis.json passed Loom: Check Stage' : 'artifact-analysis.json 已通过 Loom: Check Stage');
      assert.equal(existsSync(join(s.dir, '.loom-run.lock')), false);
      assert.deepEqual(moveOn(spec, { compressionConfirmed: true }).to, 'approved');
    } finally {
      s.cleanup();
    }
  });

test('a failing analysis writes its report but no handoff', () => {
  const s = freshSpec([GOOD.brainstorm[0], ...GOOD.expand, ...GOOD.plan.filter((d) => d.path !== 'tasks/T2.md')]);
  try {
    // The spec stands at analyze-artifacts: Check Stage runs that stage's validators.
    writeFileSync(join(s.dir, 'pipeline.state.json'), JSON.stringify(state('analyze-artifacts', { spec_dir: s.specDir })));
    const result = checkStage(new LoomRepository(s.root).load().get(s.specDir)!);
    assert.equal(result.passed, false);
    assert.equal(result.handoff, undefined);
    assert.ok(existsSync(join(s.dir, 'artifact-analysis.json')));
    assert.equal(existsSync(join(s.dir, 'handoffs', 'analyze-artifacts.json')), false);
  } finally {
    s.cleanup();
  }
});
