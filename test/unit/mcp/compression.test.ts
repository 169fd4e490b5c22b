/**
 * loom 3's context-compression gate over MCP (tools.js loom_advance_pipeline with
 * compression_confirmed, over PipelineEngine.advance and its _requiresStageCompression): a step
 * whose outputs include handoffs/<stage>.json moves on only once the agent says it compressed the
 * closed stage's context; loom_stage_checkpoint with advance: true writes the handoff and does not
 * advance.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { state, TempRepo } from '../../helpers/tempRepo';
import { assertBuilt, cliStatus, connect, type LoomClient } from './helpers';

const SPEC = 'specs/2026-12-06+compress';

describe('loom-vscode mcp: context compression, as loom 3 asks for it', () => {
  let repo: TempRepo;
  let c: LoomClient;
  before(async () => {
    assertBuilt();
    repo = new TempRepo('loom-mcp-compress-');
    // As loom 3's templates/workflow.yaml declares its steps: the handoff among the outputs.
    repo.write('.loom/workflow.yaml', 'pipelines:\n  feature:\n    steps:\n      - { id: build, next: ship, outputs: [notes.md, handoffs/build.json] }\n      - { id: ship }\n');
    repo.write(`${SPEC}/pipeline.state.json`, { ...state('build'), spec_dir: repo.path(SPEC) });
    repo.write(`${SPEC}/notes.md`, '# Notes\n');
    c = await connect(repo.root);
  });
  after(async () => {
    await c.close();
    repo.dispose();
  });

  it('refuses to advance without compression_confirmed while the handoff is missing too, naming both', async () => {
    const r = await c.call('loom_advance_pipeline', { spec_dir: SPEC });
    assert.equal(r.code, 'transition-refused');
    assert.ok(r.codes.includes('compression-required'));
    assert.ok(r.reasons.some((x: string) => /handoffs\/build\.json does not exist/.test(x)));
  });

  it('a checkpoint with advance: true writes the handoff and does not advance', async () => {
    const r = await c.call('loom_stage_checkpoint', { spec_dir: SPEC, stage: 'build', summary: 'built', advance: true });
    assert.deepEqual([r.ok, r.advance.ok, r.advance.compression_required, r.advance.required_action], [true, false, true, 'compress_closed_stage_context']);
    assert.equal(r.next_required_action, 'compress closed-stage raw context, then call loom_advance_pipeline with compression_confirmed=true');
    assert.equal(r.context.compression_required, true);
    assert.equal(cliStatus(repo.root, SPEC).stage, 'build');
  });

  it('refuses as loom does when only the compression is missing, then moves on with compression_confirmed', async () => {
    const before = repo.read(`${SPEC}/pipeline.state.json`);
    const r = await c.call('loom_advance_pipeline', { spec_dir: SPEC });
    assert.deepEqual([r.code, r.compression_required, r.required_action], ['compression-required', true, 'compress_closed_stage_context']);
    assert.match(r.error, /build requires context compression before advancing; nothing was changed/);
    assert.match(r.hint, /call loom_advance_pipeline again with compression_confirmed: true/);
    assert.equal(repo.read(`${SPEC}/pipeline.state.json`), before, 'nothing written');
    const moved = await c.call('loom_advance_pipeline', { spec_dir: SPEC, compression_confirmed: true });
    assert.deepEqual([moved.ok, moved.from, moved.to], [true, 'build', 'ship']);
    assert.equal(cliStatus(repo.root, SPEC).stage, 'ship');
  });
});
