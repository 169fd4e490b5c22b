import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { displayLanguage, setDisplayLanguage } from '../../../src/core/messages';
import { request } from '../../../src/core/port/request';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { SPEC } from '../executing/helpers/executingFixture';
import { FakePrompts } from '../executing/helpers/fakes';
import { machineHarness, type MachineHarness } from '../executing/helpers/machineHarness';

const made: MachineHarness[] = [];
after(() => made.forEach((h) => h.repo.dispose()));

test('Run Tasks without the feature worktree offers Create Worktree first, not the state file it was read from', async () => {
  const h = machineHarness();
  made.push(h);
  const spec = new LoomRepository(h.repo.root).load().get(SPEC)!;
  // No worktree given and none recorded in the state: the one loom's git-worktree stage makes is missing.
  const refused = await request(spec, { type: 'runTasks', run: { ...h.input, worktree: undefined, prompts: new FakePrompts(), signal: new AbortController().signal } }, { confirm: true });
  assert.ok(refused.kind === 'refused', JSON.stringify(refused));
  assert.equal(refused.code, 'tasks-cannot-run');
  assert.ok(
    refused.reasons.some((r) => /feature worktree does not exist/.test(r)),
    refused.reasons.join('\n'),
  );
  assert.deepEqual(refused.remedies[0], { kind: 'create-worktree' }, JSON.stringify(refused.remedies));
  assert.ok(!refused.remedies.some((r) => r.kind === 'open-file' && r.file === 'pipeline.state.json'), 'the state file is not what fixes a missing worktree');
});

for (const [language, words] of [
  ['en', 'the feature worktree does not exist: make it with Loom: Create Worktree (or loom-vscode worktree), then run the tasks again'],
  ['zh', '功能 worktree 不存在：请用 Loom: Create Worktree（或 loom-vscode worktree）创建后再运行任务'],
] as const) {
  test(`the refusal's words name what makes the worktree, not a stage the spec may have passed (${language})`, async () => {
    const before = displayLanguage();
    setDisplayLanguage(language);
    const h = machineHarness();
    made.push(h);
    try {
      const spec = new LoomRepository(h.repo.root).load().get(SPEC)!;
      const refused = await request(spec, { type: 'runTasks', run: { ...h.input, worktree: undefined, prompts: new FakePrompts(), signal: new AbortController().signal } }, { confirm: true });
      assert.ok(refused.kind === 'refused', JSON.stringify(refused));
      assert.ok(refused.reasons.includes(words), refused.reasons.join('\n'));
      assert.ok(!refused.reasons.some((r) => /run the git-worktree stage|运行 git-worktree 阶段/.test(r)), refused.reasons.join('\n'));
    } finally {
      setDisplayLanguage(before);
    }
  });
}
