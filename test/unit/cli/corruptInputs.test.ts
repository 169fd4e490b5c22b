import { test } from 'node:test';
import assert from 'node:assert/strict';
import { main } from '../../../src/cli/main';
import { SPEC, state, TempRepo, unreadableInputsSpec } from '../../helpers/tempRepo';

function run(argv: string[]) {
  let out = '';
  let err = '';
  return main(argv, { out: (t) => void (out += t), err: (t) => void (err += t) }).then((code) => ({ code, out, err }));
}

test('advance --confirm refuses a spec whose requirements.json is cut off or whose task state has an unknown status, naming file and line', async () => {
  const r = new TempRepo();
  try {
    const text = unreadableInputsSpec(r);
    const before = r.read(`${SPEC}/pipeline.state.json`);

    const status = JSON.parse((await run(['status', '--cwd', r.root, '--spec-dir', SPEC, '--json'])).out);
    assert.equal(status.next[0].ready, false, 'status does not say ready');

    const advanced = await run(['advance', '--cwd', r.root, '--spec-dir', SPEC, '--confirm']);
    assert.equal(advanced.code, 1);
    assert.match(advanced.err, /cannot move from approved to git-worktree/);
    assert.match(advanced.err, /requirements\.json is not valid JSON at line \d+, column \d+: /);
    assert.equal(r.read(`${SPEC}/pipeline.state.json`), before, 'nothing was written');

    // Where the tasks are read, the task state is named too.
    r.write(`${SPEC}/requirements.json`, text);
    r.write(`${SPEC}/pipeline.state.json`, state('executing'));
    const leaving = await run(['advance', '--cwd', r.root, '--spec-dir', SPEC, '--confirm', '--json']);
    assert.equal(leaving.code, 1);
    const refusal = JSON.parse(leaving.out);
    assert.ok(
      refusal.reasons.some((x: string) => /^task-states\/T1\.state\.json line \d+: .*status/.test(x)),
      refusal.reasons.join('; '),
    );
  } finally {
    r.dispose();
  }
});
