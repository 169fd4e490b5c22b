import assert from 'node:assert/strict';
import { it } from 'node:test';
import { stopVerdict } from '../../../src/core/agentHost/stopCheck';
import { displayLanguage, setDisplayLanguage } from '../../../src/core/messages';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { plannedSpec, SPEC, state, TempRepo } from '../../helpers/tempRepo';

const T2 = '---\nowns: [src/logout.ts]\nreads: []\ndepends_on: [T1]\nrequirements: [REQ-001]\nbehavior_ids: [REQ-001-B02]\ncomplexity: low\n---\n# T2 Logout\n\nImplement logout.\n';
const taskState = (id: string, status: string) => ({ task_id: id, spec_dir: SPEC, status, retry_count: 0 });

// The plugin's Stop hook asks this: a run of the task stage left half way keeps the agent working;
// a task the person must look at (blocked, failed), or a stage that is not the task stage, lets it stop.
it('a run left half way keeps the agent working; a blocked task or another stage lets it stop', () => {
  const language = displayLanguage();
  setDisplayLanguage('en');
  const r = new TempRepo('loom-stop-');
  try {
    plannedSpec(r);
    r.write(`${SPEC}/tasks/T2.md`, T2);
    r.write(`${SPEC}/pipeline.state.json`, state('executing'));
    const verdict = (kept = false) => stopVerdict(new LoomRepository(r.root), kept);
    assert.deepEqual(verdict(), { keepWorking: false, reasons: [] }, 'nothing begun: the person starts the run');
    r.write(`${SPEC}/task-states/T1.state.json`, taskState('T1', 'done'));
    const halfWay = verdict();
    assert.equal(halfWay.keepWorking, true);
    assert.match(halfWay.reasons[0], /the tasks T2 are still pending/);
    assert.equal(verdict(true).keepWorking, false, 'kept once already');
    r.write(`${SPEC}/task-states/T2.state.json`, taskState('T2', 'blocked'));
    assert.equal(verdict().keepWorking, false, 'a blocked task goes to the person');
    r.write(`${SPEC}/task-states/T2.state.json`, taskState('T2', 'reviewing'));
    assert.match(verdict().reasons.join('\n'), /task T2 is reviewing/);
    r.write(`${SPEC}/task-states/T2.state.json`, taskState('T2', 'done'));
    assert.deepEqual(verdict(), { keepWorking: false, reasons: [] });
  } finally {
    r.dispose();
    setDisplayLanguage(language);
  }
});
