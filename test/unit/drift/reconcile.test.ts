import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runDraftingTurn } from '../../../src/core/authoring/draftingTurn';
import { draftBase } from '../../../src/core/authoring/draftWrite';
import { buildRepairMessage, loadAuthoringTemplates } from '../../../src/core/authoring/authoringPrompts';
import { readOptionalText } from '../../../src/core/fs/readOptional';
import { BASELINE_KEY } from '../../../src/core/drift/baseline';
import { buildReconcileMessages, checkReconcileDrafts, driftDiff, reconcileCommand, writeReconcile } from '../../../src/core/drift/reconcile';
import { repositoryDrift } from '../../../src/core/drift/repositoryDrift';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { REVIEW_COMMENTS_FILE } from '../../../src/core/review/reviewComments';
import { SPEC } from '../../helpers/tempRepo';
import { block, QueueModel } from '../authoring/authoringFixture';
import { git } from '../executing/helpers/gitRepos';
import { driftedSpec, json, ledger } from './helpers/driftRepos';

const made: string[] = [];
after(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));
const NOW = '2026-12-07T10:00:00.000Z';

test('reconcile: the model gets the diff since the baseline and the spec files; a proposal that drops a behavior is sent back; written, ids and threads are kept and the baseline moves', async () => {
  const { root, baseline, head } = await driftedSpec(made);
  const repo = new LoomRepository(root).load();
  const spec = repo.get(SPEC)!;
  const drift = (await repositoryDrift(repo, { only: [spec] })).specs[0];
  assert.equal(drift.status, 'drifted');
  const command = reconcileCommand('synced');
  const diff = await driftDiff(root, drift);
  assert.match(diff, /login: no invalid-input check \(.*\): src\/login\.ts/);
  assert.match(diff, /-v2\n\+v3/);

  const model = new QueueModel([
    `The check is gone, so B02 goes.\n${block({ path: 'requirements.json', content: ledger(null) })}`,
    `Kept B02, superseded.\n${block({ path: 'requirements.json', content: ledger({ status: 'superseded', description: 'behavior 2 (superseded: login no longer checks its input)' }) })}`,
  ]);
  const dir = spec.snapshot.dir;
  const result = await runDraftingTurn({
    model,
    messages: buildReconcileMessages({ command, dir, specDir: SPEC, drift, diff, request: '', language: 'en' }),
    specDir: SPEC,
    command,
    pending: [],
    check: (d) => checkReconcileDrafts(spec.snapshot, command, d, readOptionalText),
    repairMessage: (p) => buildRepairMessage(loadAuthoringTemplates(root, 'en'), p),
    onEvent: () => undefined,
    signal: new AbortController().signal,
  });
  const prompt = model.requests[0].at(-1)!.content as string;
  assert.match(prompt, /Keep every requirement id and every behavior id/);
  assert.match(prompt, /-v2\n\+v3/);
  assert.match(prompt, /### requirements\.json\n\{/);
  assert.equal(result.repairs, 1);
  assert.match(model.requests[1].at(-1)!.content as string, /requirements\.json drops the behavior REQ-001-B02: keep it with "status": "superseded"/);
  assert.deepEqual(result.problems, []);

  const threadsBefore = readFileSync(join(dir, REVIEW_COMMENTS_FILE), 'utf8');
  const written = await writeReconcile(spec, command, result.drafts, draftBase(dir, result.drafts), 'B02 superseded: login no longer checks its input', 'Ada (@loom /reconcile)', NOW);
  assert.deepEqual(written.written, ['requirements.json']);
  const ledgerNow = JSON.parse(readFileSync(join(dir, 'requirements.json'), 'utf8'));
  assert.deepEqual(
    ledgerNow.requirements[0].behaviors.map((b: { id: string; status: string }) => [b.id, b.status]),
    [
      ['REQ-001-B01', 'in_progress'],
      ['REQ-001-B02', 'superseded'],
    ],
  );
  assert.equal(readFileSync(join(dir, REVIEW_COMMENTS_FILE), 'utf8'), threadsBefore, 'the resolved thread is kept as it was');
  const state = JSON.parse(readFileSync(join(dir, 'pipeline.state.json'), 'utf8'));
  assert.equal(state.current_stage, 'synced');
  assert.deepEqual(state.metadata[BASELINE_KEY], { commit: head, recorded_at: NOW, source: 'reconciled', by: 'Ada (@loom /reconcile)', reason: 'B02 superseded: login no longer checks its input' });
  assert.notEqual(head, baseline);
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'reconciled');
  repo.reload(spec.snapshot.dir);
  assert.equal((await repositoryDrift(repo, { only: [spec] })).specs[0].status, 'clean');
});

test('reconcile: a requirement dropped is refused by the checks too, whatever else the proposal does', async () => {
  const { root } = await driftedSpec(made);
  const spec = new LoomRepository(root).load().get(SPEC)!;
  const empty = json({ requirements: [] });
  const problems = checkReconcileDrafts(spec.snapshot, reconcileCommand('synced'), [{ path: 'requirements.json', content: empty, complete: true }], readOptionalText);
  assert.ok(
    problems.some((p) => p.startsWith('requirements.json drops REQ-001: a reconcile keeps every requirement id')),
    problems.join('\n'),
  );
});
