import assert from 'node:assert/strict';
import { after, test } from 'node:test';
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
