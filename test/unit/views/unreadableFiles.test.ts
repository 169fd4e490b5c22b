import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { specOverview } from '../../../src/core/specdir/specOverview';
import { buildDashboardModel } from '../../../src/core/views/dashboardModel';
import { plannedSpec, SPEC, state, TempRepo } from '../../helpers/tempRepo';

/**
 * A file of the spec that cannot be read is seen everywhere (issue 37): the spec is filed under
 * Needs attention with the file and line, the dashboard names it with its line, and the checklist's
 * "the files it reads can be read" says which file it does not read and cannot.
 */
const repos: TempRepo[] = [];
after(() => repos.forEach((r) => r.dispose()));

function cutRequirements(stage: string) {
  const r = new TempRepo();
  repos.push(r);
  plannedSpec(r);
  r.write(`${SPEC}/pipeline.state.json`, state(stage));
  const text = r.read(`${SPEC}/requirements.json`);
  r.write(`${SPEC}/requirements.json`, text.slice(0, Math.floor(text.length / 2)));
  return new LoomRepository(r.root).load().get(SPEC)!;
}

test('a cut-off requirements.json files the spec under Needs attention, naming the file and its line; its stage is still known', () => {
  const spec = cutRequirements('executing');
  const o = specOverview(spec.snapshot, spec.definition, spec.stage);
  assert.equal(o.group, 'attention');
  assert.deepEqual(
    o.unreadable.map((f) => f.file),
    ['requirements.json'],
  );
  assert.ok(o.unreadable[0].line > 1);
  assert.match(o.unreadable[0].message, /requirements\.json is not valid JSON/);
  assert.equal(o.stages.find((s) => s.current)?.id, 'executing', 'the stage is known: the state file reads');
});

test('the dashboard names the unreadable file, and the checklist does not claim every file reads', () => {
  // A stage whose way on does not read requirements.json.
  const probe = cutRequirements('brainstorming');
  const stage = probe.definition.transitions.find((t) => t.kind === 'forward' && t.guards.some((g) => g.type === 'inputsReadable' && !g.params.paths.includes('requirements.json')))!.from;
  const spec = cutRequirements(stage);
  const m = buildDashboardModel(spec);
  assert.deepEqual(
    m.unreadable.map((f) => [f.path, f.file]),
    [[`${SPEC}/requirements.json`, 'requirements.json']],
  );
  const readable = m.next.find((n) => n.kind === 'forward')!.preconditions.find((p) => p.label === 'the files it reads can be read')!;
  assert.equal(readable.holds, true, `${stage}'s way on does not read requirements.json`);
  assert.equal(readable.caveat, 'requirements.json cannot be read: this step does not read it, but a later one will. Fix it before then.');

  // Where the way on reads it, the check itself fails and says why; there is nothing beside it to say.
  const reading = buildDashboardModel(cutRequirements('executing'));
  const fails = reading.next.find((n) => n.kind === 'forward')!.preconditions.find((p) => p.label === 'the files it reads can be read')!;
  assert.equal(fails.holds, false);
  assert.equal(fails.caveat, undefined);
});

test("a corrupt state file is in the dashboard's unreadable files, to be opened at its line", () => {
  const r = new TempRepo();
  repos.push(r);
  plannedSpec(r);
  r.write(`${SPEC}/pipeline.state.json`, '{\n  "current_stage": "executing",\n  "stage_history": [\n');
  const m = buildDashboardModel(new LoomRepository(r.root).load().get(SPEC)!);
  assert.equal(m.stage, null);
  const [state] = m.unreadable;
  assert.deepEqual([state.path, state.file], [`${SPEC}/pipeline.state.json`, 'pipeline.state.json']);
  assert.ok(state.line >= 3, `where it stops being readable (${state.line})`);
});
