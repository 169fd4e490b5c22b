import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TransitionRefusedError } from '../../../src/core/errors';
import { guardKey, type GuardCall, type GuardName } from '../../../src/core/pipeline/guardCall';
import { GUARDS, type GuardRegistry } from '../../../src/core/pipeline/guards';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { SpecPipeline } from '../../../src/core/repository/specPipeline';
import { loadSpec } from '../../../src/core/specdir/loadSpec';
import { buildDashboardModel } from '../../../src/core/views/dashboardModel';
import { plannedSpec, SPEC, state, TempRepo, unreadableInputsSpec } from '../../helpers/tempRepo';
import { advance } from '../../helpers/intents';

const NOW = '2026-11-29T10:00:00.000Z';

/** The real guards, each call counted by its name and parameters. */
function countingGuards(): { registry: GuardRegistry; counts: Map<string, number> } {
  const counts = new Map<string, number>();
  const registry = Object.fromEntries(
    (Object.keys(GUARDS) as GuardName[]).map((name) => [
      name,
      (params: never, ctx: never) => {
        const key = guardKey({ type: name, params } as GuardCall);
        counts.set(key, (counts.get(key) ?? 0) + 1);
        return (GUARDS[name] as (p: never, c: never) => ReturnType<GuardRegistry['fileExists']>)(params, ctx);
      },
    ]),
  ) as GuardRegistry;
  return { registry, counts };
}

function specAt(r: TempRepo, guards: GuardRegistry): SpecPipeline {
  const repo = new LoomRepository(r.root).load();
  const loaded = repo.get(SPEC)!;
  return new SpecPipeline(loadSpec(r.root, r.path(SPEC)), loaded.definition, { guards });
}

test('each guard is evaluated once per Advance, and once for the views of one snapshot', () => {
  const r = new TempRepo();
  try {
    r.write(`${SPEC}/pipeline.state.json`, state('approved'));
    plannedSpec(r);
    const { registry, counts } = countingGuards();
    const spec = specAt(r, registry);

    // The views of one snapshot: the CLI's next, the dashboard's checklist, asked twice.
    spec.status();
    buildDashboardModel(spec);
    spec.status();
    assert.ok(counts.size > 0, 'the guards were asked');
    for (const [key, n] of counts) assert.equal(n, 1, `${key} was evaluated ${n} times for one snapshot`);

    counts.clear();
    const result = advance(spec, { now: NOW });
    assert.equal(result.to, 'git-worktree');
    assert.ok(counts.size > 0, 'Advance asked the guards');
    for (const [key, n] of counts) assert.equal(n, 1, `${key} was evaluated ${n} times for one Advance`);
    spec.dispose();
  } finally {
    r.dispose();
  }
});

test('a refused Advance explains itself from the same verdicts its guards reached', () => {
  const r = new TempRepo();
  try {
    r.write(`${SPEC}/pipeline.state.json`, state('planning'));
    r.write(`${SPEC}/spec.md`, '# s');
    const { registry, counts } = countingGuards();
    const spec = specAt(r, registry);
    assert.throws(
      () => advance(spec, { confirm: true, now: NOW }),
      (e: TransitionRefusedError) => {
        assert.ok(e.reasons.includes('plan.md does not exist'), e.reasons.join('; '));
        return true;
      },
    );
    for (const [key, n] of counts) assert.equal(n, 1, `${key} was evaluated ${n} times`);
    spec.dispose();
  } finally {
    r.dispose();
  }
});

test('a corrupt input is never ready: cut-off requirements.json and a task state with an unknown status', () => {
  const r = new TempRepo();
  try {
    const text = unreadableInputsSpec(r);
    const before = r.read(`${SPEC}/pipeline.state.json`);
    const repo = new LoomRepository(r.root).load();
    const spec = repo.get(SPEC)!;
    const next = spec.status().next[0];
    assert.equal(next.ready, false);
    assert.ok(
      next.unmet.some((u) => /^requirements\.json is not valid JSON at line \d+, column \d+: /.test(u)),
      next.unmet.join('; '),
    );
    assert.throws(
      () => advance(spec, { confirm: true, now: NOW }),
      (e: TransitionRefusedError) => {
        assert.deepEqual(e.details.codes, ['unreadable-input']);
        assert.equal(e.details.file, 'requirements.json');
        return true;
      },
    );
    assert.equal(r.read(`${SPEC}/pipeline.state.json`), before, 'nothing was written');

    // At executing, the task state is an input too.
    r.write(`${SPEC}/requirements.json`, text);
    r.write(`${SPEC}/pipeline.state.json`, state('executing'));
    repo.reload(repo.specDirOf(r.path(`${SPEC}/pipeline.state.json`))!);
    const leaving = repo
      .get(SPEC)!
      .status()
      .next.find((t) => t.kind === 'forward')!;
    assert.ok(
      leaving.unmet.some((u) => /^task-states\/T1\.state\.json line \d+: .*status/.test(u)),
      leaving.unmet.join('; '),
    );

    const dashboard = buildDashboardModel(repo.get(SPEC)!);
    const forward = dashboard.next.find((t) => t.kind === 'forward')!;
    assert.equal(forward.ready, false, 'the dashboard does not say ready');
  } finally {
    r.dispose();
  }
});

test('the actor of a spec follows its files: a change made by another tool moves it, a reload keeps it', () => {
  const r = new TempRepo();
  try {
    r.write(`${SPEC}/pipeline.state.json`, state('planning'));
    const repo = new LoomRepository(r.root).load();
    const spec = repo.get(SPEC)!;
    const actor = spec.actor;
    r.write(`${SPEC}/pipeline.state.json`, state('approved'));
    repo.reload(repo.specDirOf(r.path(`${SPEC}/pipeline.state.json`))!);
    assert.equal(repo.get(SPEC), spec, 'the same spec, the same actor');
    assert.equal(spec.actor, actor);
    assert.equal(actor.getSnapshot().value, 'approved');
    assert.equal(spec.stage, 'approved');
  } finally {
    r.dispose();
  }
});

test('one change tells the views once, after the lock is let go, with the spec unlocked', () => {
  const r = new TempRepo();
  try {
    r.write(`${SPEC}/pipeline.state.json`, state('approved'));
    plannedSpec(r);
    const spec = new LoomRepository(r.root).load().get(SPEC)!;
    const seen: { stage: string | null; locked: boolean }[] = [];
    spec.onDidChange(() => seen.push({ stage: spec.stage, locked: spec.snapshot.lock !== undefined }));
    advance(spec, { now: NOW });
    assert.deepEqual(seen, [{ stage: 'git-worktree', locked: false }]);
  } finally {
    r.dispose();
  }
});
