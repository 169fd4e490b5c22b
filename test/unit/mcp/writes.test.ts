/**
 * The files the tools write, as loom 3's tools.js writes them (loom_update_task_state over
 * PipelineStateStore.updateTask, loom_write_handoff / loom_stage_checkpoint over
 * writeStageHandoff / writeHandoff, loom_add_memory over MemoryStore.add), read back by the CLI
 * and the core's schemas; corrupt files are reported by name and left as they were; two clients
 * writing one spec at once both land, under the run lock.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { HandoffSchema } from '../../../src/core/files/handoff';
import { TaskStateSchema } from '../../../src/core/files/taskState';
import { loadSpec } from '../../../src/core/specdir/loadSpec';
import { TempRepo } from '../../helpers/tempRepo';
import { assertBuilt, BIN, BUILD, cliStatus, connect, DRAFT, pipelineRepo, type LoomClient, serveFixture } from './helpers';

const taskStatuses = (root: string) => Object.fromEntries(cliStatus(root, BUILD).tasks.map((t: { id: string; status: string; retry_count: number }) => [t.id, [t.status, t.retry_count]]));

describe('loom-vscode mcp: task states, handoffs, checkpoints', () => {
  let repo: TempRepo;
  let c: LoomClient;
  serveFixture((r, client) => ((repo = r), (c = client)));

  it('writes task-states/TN.state.json and progress.md; failed adds a retry', async () => {
    const r = await c.call('loom_update_task_state', { spec_dir: BUILD, task_id: 'T1', status: 'executing' });
    assert.equal(r.ok, true);
    assert.deepEqual([r.task.task_id, r.task.status, r.task.retry_count], ['T1', 'executing', 0]);
    await c.call('loom_update_task_state', { spec_dir: BUILD, task_id: 'T1', status: 'failed' });
    const twice = await c.call('loom_update_task_state', { spec_dir: BUILD, task_id: 'T1', status: 'failed' });
    assert.equal(twice.task.retry_count, 2);
    const blocked = await c.call('loom_update_task_state', { spec_dir: BUILD, task_id: 'T2', status: 'blocked', blocker: 'waiting for the API' });
    assert.equal(blocked.task.blocker, 'waiting for the API');
    const file = TaskStateSchema().parse(repo.json(`${BUILD}/task-states/T1.state.json`));
    // spec_dir as loom's initTask writes it: the absolute spec directory (the CLI and the extension write the same).
    assert.deepEqual([file.status, file.retry_count, file.spec_dir], ['failed', 2, repo.path(BUILD)]);
    assert.deepEqual(taskStatuses(repo.root), { T1: ['failed', 2], T2: ['blocked', 0], T3: ['pending', 0] });
    assert.match(repo.read(`${BUILD}/progress.md`), /T2/);
  });

  it('refuses an unknown task status and an unknown task, writing nothing', async () => {
    const status = await c.call('loom_update_task_state', { spec_dir: BUILD, task_id: 'T3', status: 'finished' });
    assert.match(status.error, /invalid arguments for loom_update_task_state/);
    assert.match(status.error, /pending.*executing.*reviewing.*done.*failed.*blocked/s);
    assert.equal(status.code, 'invalid-arguments');
    const task = await c.call('loom_update_task_state', { spec_dir: BUILD, task_id: 'T9', status: 'done' });
    assert.match(task.error, /has no task T9; nothing was written/);
    assert.match(task.hint, /T1, T2, T3/);
    assert.equal(task.code, 'unknown-task');
    const name = await c.call('loom_update_task_state', { spec_dir: BUILD, task_id: '../T1', status: 'done' });
    assert.match(name.error, /task_id/);
    assert.equal(existsSync(repo.path(`${BUILD}/task-states/T3.state.json`)), false);
    assert.equal(existsSync(repo.path(`${BUILD}/task-states/T9.state.json`)), false);
  });

  it('leaves a task state with a status loom does not know untouched, naming it', async () => {
    repo.write(`${BUILD}/task-states/T3.state.json`, { task_id: 'T3', status: 'finished', retry_count: 0 });
    const before = repo.sha256(`${BUILD}/task-states/T3.state.json`);
    const r = await c.call('loom_update_task_state', { spec_dir: BUILD, task_id: 'T3', status: 'done' });
    assert.match(r.error, new RegExp(`${BUILD.replace('+', '\\+')}/task-states/T3\\.state\\.json cannot be read, so it was not overwritten`));
    assert.equal(r.file, `${BUILD}/task-states/T3.state.json`);
    assert.equal(repo.sha256(`${BUILD}/task-states/T3.state.json`), before);
    const ctx = await c.call('loom_get_pipeline_context', { spec_dir: BUILD });
    assert.deepEqual(
      ctx.file_problems.map((p: { file: string }) => p.file),
      [`${BUILD}/task-states/T3.state.json`],
    );
  });

  it('writes stage and task handoffs that loom’s schema reads, listed in progress.md', async () => {
    const stage = await c.call('loom_write_handoff', { spec_dir: BUILD, stage: 'build', summary: 'built the parts', artifacts: ['src/T1.ts'], data: { notes: 'n' } });
    assert.deepEqual([stage.ok, stage.path, stage.handoff.status, stage.handoff.summary], [true, 'handoffs/build.json', 'done', 'built the parts']);
    assert.match(stage.next_required_action, /loom_advance_pipeline/);
    const task = await c.call('loom_write_handoff', { spec_dir: BUILD, task_id: 'T2', status: 'partial', summary: 'half' });
    assert.equal(task.path, 'handoffs/T2.json');
    const file = HandoffSchema().parse(repo.json(`${BUILD}/handoffs/build.json`));
    assert.deepEqual([file.stage, file.status, file.artifacts, file.notes], ['build', 'done', ['src/T1.ts'], 'n']);
    assert.equal(HandoffSchema().parse(repo.json(`${BUILD}/handoffs/T2.json`)).task_id, 'T2');
    const progress = repo.read(`${BUILD}/progress.md`);
    assert.match(progress, /\| `build` \| done \| built the parts \| src\/T1\.ts \|/);
    assert.match(progress, /\| `T2` \| partial \| half \|/);
  });

  it('refuses a handoff with neither or both of stage and task_id, or an unknown one', async () => {
    assert.match((await c.call('loom_write_handoff', { spec_dir: BUILD })).error, /stage or task_id is required/);
    assert.match((await c.call('loom_write_handoff', { spec_dir: BUILD, stage: 'build', task_id: 'T1' })).error, /Use only one of stage or task_id/);
    assert.match((await c.call('loom_write_handoff', { spec_dir: BUILD, stage: 'deploy' })).error, /deploy is not a stage of the feature pipeline/);
    assert.match((await c.call('loom_write_handoff', { spec_dir: BUILD, stage: '../../x' })).error, /invalid arguments/);
    assert.match((await c.call('loom_write_handoff', { spec_dir: BUILD, stage: 'ship', data: { status: 'shipped' } })).error, /not one loom can read/);
    assert.equal(existsSync(repo.path(`${BUILD}/handoffs/deploy.json`)), false);
    assert.equal(existsSync(repo.path(`${BUILD}/handoffs/ship.json`)), false);
  });

  it('leaves a corrupt handoff untouched, naming it', async () => {
    repo.write(`${BUILD}/handoffs/T1.json`, '{ "status": ');
    const r = await c.call('loom_write_handoff', { spec_dir: BUILD, task_id: 'T1', summary: 'x' });
    assert.match(r.error, /handoffs\/T1\.json cannot be read, so it was not overwritten/);
    assert.equal(repo.read(`${BUILD}/handoffs/T1.json`), '{ "status": ');
  });

  // loom 3's loom_stage_checkpoint (tools.js) writes the handoff and, with advance: true, deliberately
  // does not advance: the agent compresses its context, then calls loom_advance_pipeline.
  it('checkpoints only the current stage; with advance it writes the handoff, does not move, and says what to do next', async () => {
    const wrong = await c.call('loom_stage_checkpoint', { spec_dir: BUILD, stage: 'ship' });
    assert.match(wrong.error, /checkpoint stage "ship" does not match current stage "build"/);
    const r = await c.call('loom_stage_checkpoint', { spec_dir: BUILD, stage: 'build', summary: 'done building', advance: true });
    assert.equal(r.ok, true);
    assert.deepEqual([r.advance.ok, r.advance.skipped, r.advance.compression_required, r.advance.required_action], [false, true, true, 'compress_closed_stage_context']);
    assert.equal(r.next_required_action, 'compress closed-stage raw context, then call loom_advance_pipeline with compression_confirmed=true');
    assert.equal(r.context.current_stage, 'build');
    assert.equal(r.handoff_summary.summary, 'done building');
    assert.equal(cliStatus(repo.root, BUILD).stage, 'build');
    const moved = await c.call('loom_advance_pipeline', { spec_dir: BUILD, compression_confirmed: true });
    assert.deepEqual([moved.ok, moved.from, moved.to], [true, 'build', 'ship']);
  });

  it('a checkpoint never advances, at a gate either, and keeps the handoff', async () => {
    const r = await c.call('loom_stage_checkpoint', { spec_dir: DRAFT, stage: 'draft' });
    assert.deepEqual([r.ok, r.advance.ok, r.advance.skipped, r.next_required_action], [true, true, true, 'call loom_advance_pipeline when ready']);
    assert.equal(cliStatus(repo.root, DRAFT).stage, 'draft');
    assert.ok(existsSync(repo.path(`${DRAFT}/handoffs/draft.json`)));
  });

  it('leaves the spec valid for the core and the CLI', () => {
    const snapshot = loadSpec(repo.root, repo.path(BUILD));
    const written = snapshot.diagnostics.filter((d) => d.severity === 'error' && !d.file.endsWith('T3.state.json') && !d.file.endsWith('handoffs/T1.json'));
    assert.deepEqual(written, []);
    const v = spawnSync(process.execPath, [BIN, 'validate', '--cwd', repo.root, '--spec-dir', BUILD, '--json'], { encoding: 'utf8' });
    const files = JSON.parse(v.stdout)
      .diagnostics.filter((d: { severity: string }) => d.severity === 'error')
      .map((d: { file: string }) => d.file);
    assert.deepEqual([...new Set(files)].sort(), [`${BUILD}/handoffs/T1.json`, `${BUILD}/task-states/T3.state.json`]);
  });
});

describe('loom-vscode mcp: context and memory', () => {
  let repo: TempRepo;
  let c: LoomClient;
  serveFixture((r, client) => ((repo = r), (c = client)));

  it('gives the constitution’s outline, one section, or all of it', async () => {
    const outline = await c.call('loom_get_context', { doc: 'constitution' });
    assert.deepEqual(
      outline.sections.map((s: { title: string }) => s.title),
      ['Architecture', 'Testing'],
    );
    assert.ok(outline.sections.every((s: { tokens: number }) => s.tokens > 0));
    const section = await c.call('loom_get_context', { doc: 'constitution', section: 'Testing' });
    assert.equal(section.content, 'No timed assertions.');
    const full = await c.call('loom_get_context', { doc: 'constitution', full: true });
    assert.match(full.content, /Preamble/);
    const missing = await c.call('loom_get_context', { doc: 'constitution', section: 'Deploy' });
    assert.deepEqual(missing.available_sections, ['Architecture', 'Testing']);
    assert.match((await c.call('loom_get_context', { doc: 'memory' })).error, /Context doc not found: memory/);
    assert.match((await c.call('loom_get_context', { doc: 'secrets' })).error, /Unknown context doc: secrets/);
    repo.write('.loom/memory/MEMORY.md', '# Memory\n\nno sections here\n');
    assert.equal((await c.call('loom_get_context', { doc: 'memory' })).fallback, 'no-sections');
  });

  it('adds memory entries newest first and filters them by type', async () => {
    const added = await c.call('loom_add_memory', { type: '决策', content: 'use the SDK', context: 'less code' });
    assert.equal(added.ok, true);
    assert.match(added.entry.id, /^[0-9a-f]{8}$/);
    assert.deepEqual([added.entry.type, added.entry.content, added.entry.context, added.entry.tags], ['决策', 'use the SDK', 'less code', []]);
    await c.call('loom_add_memory', { type: '踩坑', content: 'stdout is the protocol' });
    const all = await c.call('loom_get_memory');
    assert.deepEqual(
      all.entries.map((e: { content: string }) => e.content),
      ['stdout is the protocol', 'use the SDK'],
    );
    const decisions = await c.call('loom_get_memory', { type: '决策' });
    assert.equal(decisions.entries.length, 1);
    assert.match((await c.call('loom_add_memory', { type: 'rumour', content: 'x' })).error, /invalid arguments/);
    const store = repo.json('.loom/memory/store.json');
    assert.deepEqual(Object.keys(store), ['entries', 'sessions']);
  });

  it('keeps at most 50 entries', async () => {
    for (let i = 0; i < 50; i++) await c.call('loom_add_memory', { type: '状态', content: `note ${i}` });
    const store = repo.json('.loom/memory/store.json');
    assert.equal(store.entries.length, 50);
    assert.equal(store.entries[0].content, 'note 49');
  });

  it('reports a corrupt store by name and never overwrites it', async () => {
    repo.write('.loom/memory/store.json', '{"entries": [');
    for (const r of [await c.call('loom_add_memory', { type: 'adr', content: 'x' }), await c.call('loom_get_memory')]) {
      assert.match(r.error, /\.loom\/memory\/store\.json is corrupt/);
      assert.equal(r.file, '.loom/memory/store.json');
    }
    assert.equal(repo.read('.loom/memory/store.json'), '{"entries": [');
  });
});

describe('loom-vscode mcp: two clients on one spec at once', () => {
  let repo: TempRepo;
  let a: LoomClient;
  let b: LoomClient;
  before(async () => {
    assertBuilt();
    repo = pipelineRepo();
    [a, b] = await Promise.all([connect(repo.root), connect(repo.root)]);
  });
  after(async () => {
    await Promise.all([a.close(), b.close()]);
    repo.dispose();
  });

  it('loses nothing: every task state, handoff and memory entry lands, and the lock is released', async () => {
    const calls: Promise<any>[] = [];
    for (let round = 0; round < 5; round++) {
      for (const [client, ids] of [
        [a, ['T1', 'T2']],
        [b, ['T3']],
      ] as const) {
        for (const id of ids) {
          calls.push(client.call('loom_update_task_state', { spec_dir: BUILD, task_id: id, status: round === 4 ? 'done' : 'failed' }));
          calls.push(client.call('loom_write_handoff', { spec_dir: BUILD, task_id: id, summary: `${id} round ${round}` }));
        }
        calls.push(client.call('loom_add_memory', { type: '状态', content: `${client === a ? 'a' : 'b'} ${round}` }));
      }
    }
    const results = await Promise.all(calls);
    assert.deepEqual(
      results.filter((r) => r.error),
      [],
    );
    // loom's updateTask: the first `failed` starts the state as initTask writes it; each later one counts a retry.
    assert.deepEqual(taskStatuses(repo.root), { T1: ['done', 3], T2: ['done', 3], T3: ['done', 3] });
    const progress = repo.read(`${BUILD}/progress.md`);
    for (const id of ['T1', 'T2', 'T3']) assert.match(progress, new RegExp(`\\| \`${id}\` \\| done \\| ${id} round \\d \\|`));
    assert.equal(repo.json('.loom/memory/store.json').entries.length, 10);
    assert.ok(!readdirSync(repo.path(BUILD)).includes('.loom-run.lock'));
  });
});
