/**
 * Discovery as loom's server does it (loom 3 src/mcp/server.js listVisibleTools, tools.js
 * CAPABILITY_GROUPS and loom_load_tool_group): only `meta` is listed until a group is loaded,
 * loading one sends notifications/tools/list_changed, LOOM_LAZY_TOOLS=0 lists everything. The
 * tool names and input property names are pinned to loom's (LOOM-MCP.md).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { TempRepo } from '../../helpers/tempRepo';
import { assertBuilt, BIN, connect, pipelineRepo, type LoomClient, serveFixture } from './helpers';

/** loom's tools with their input property names, then ours. */
const LOOM_INPUTS: Record<string, string[]> = {
  loom_list_capabilities: ['project_root'],
  loom_load_tool_group: ['group'],
  loom_telemetry: [],
  loom_attach_spec: ['spec_dir', 'project_root'],
  loom_get_context: ['doc', 'section', 'full', 'project_root'],
  loom_get_memory: ['type', 'limit', 'project_root'],
  loom_add_memory: ['type', 'content', 'context', 'project_root'],
  loom_get_project_status: ['project_root', 'limit', 'active_only', 'detail'],
  loom_get_pipeline_context: ['spec_dir', 'detail', 'handoff_limit'],
  // loom 3's tools.js: loom_advance_pipeline takes compression_confirmed. On loom_approve_gate it is
  // ours: approving an interactive stage (which loom would advance) asks for it as advancing does.
  loom_advance_pipeline: ['spec_dir', 'compression_confirmed'],
  loom_approve_gate: ['spec_dir', 'compression_confirmed'],
  loom_update_task_state: ['spec_dir', 'task_id', 'status', 'blocker'],
  loom_write_handoff: ['spec_dir', 'stage', 'task_id', 'status', 'summary', 'artifacts', 'data'],
  loom_select_pipeline: ['request', 'spec_dir', 'initialize'],
  loom_adjust_pipeline: ['spec_dir', 'new_remaining_steps'],
  loom_stage_checkpoint: ['spec_dir', 'stage', 'status', 'summary', 'artifacts', 'data', 'advance', 'handoff_limit'],
  loom_detail_expansion_check: ['spec_dir'],
  loom_validate_plan: ['spec_dir'],
  loom_analyze_artifacts: ['spec_dir'],
  loom_converge: ['spec_dir', 'round'],
  loom_omission_hunt: ['spec_dir'],
  loom_verify_artifacts: ['spec_dir'],
  loom_trace: ['spec_dir'],
  loom_tasks: ['spec_dir'],
  loom_validate: ['spec_dir'],
  loom_check_stage: ['spec_dir'],
  loom_get_drift: ['project_root', 'spec_dir'],
};

describe('loom-vscode mcp: lazy tool groups', () => {
  let c: LoomClient;
  serveFixture((_repo, client) => (c = client), { env: { LOOM_TELEMETRY: '1' } });

  it('lists only the meta group at first', async () => {
    const { tools } = await c.client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['loom_list_capabilities', 'loom_load_tool_group', 'loom_telemetry']);
    assert.equal(c.client.getServerCapabilities()?.tools?.listChanged, true);
  });

  it('catalogs every group with its tools, ours included', async () => {
    const catalog = await c.call('loom_list_capabilities');
    assert.deepEqual(
      catalog.groups.map((g: { group: string }) => g.group),
      ['meta', 'session', 'context', 'pipeline', 'memory'],
    );
    const listed = catalog.groups.flatMap((g: { tools: string[] }) => g.tools).sort();
    assert.deepEqual(listed, Object.keys(LOOM_INPUTS).sort());
    const pipeline = catalog.groups.find((g: { group: string }) => g.group === 'pipeline');
    for (const ours of ['loom_trace', 'loom_tasks', 'loom_validate', 'loom_check_stage']) assert.ok(pipeline.tools.includes(ours), ours);
    assert.equal(pipeline.loaded, false);
  });

  it('loading a group lists its tools and sends list_changed', async () => {
    const before = c.listChanged();
    const loaded = await c.call('loom_load_tool_group', { group: 'pipeline' });
    assert.equal(loaded.ok, true);
    assert.ok(loaded.loaded_tools.includes('loom_advance_pipeline'));
    // The notification is sent before the call's answer, on the same ordered stream.
    assert.equal(c.listChanged(), before + 1);
    const { tools } = await c.client.listTools();
    assert.ok(tools.some((t) => t.name === 'loom_advance_pipeline'));
    assert.ok(!tools.some((t) => t.name === 'loom_get_memory'), 'memory is not loaded');
  });

  it('refuses an unknown group with the ones there are', async () => {
    const r = await c.call('loom_load_tool_group', { group: 'retrieval' });
    assert.match(r.error, /Unknown group: retrieval/);
    assert.match(r.error, /context, pipeline|session, context/);
  });

  it('runs a tool called by name before its group is loaded, as loom does', async () => {
    const r = await c.call('loom_get_memory');
    assert.deepEqual(r.entries, []);
  });

  it('answers bad calls with results and keeps answering', async () => {
    const bad = await c.call('loom_update_task_state', { task_id: 'T1', status: 'finished' });
    assert.match(bad.error, /invalid arguments for loom_update_task_state/);
    assert.match(bad.error, /status/);
    await assert.rejects(c.client.callTool({ name: 'loom_no_such_tool', arguments: {} }), /Unknown tool: loom_no_such_tool/);
    const wrongType = await c.call('loom_get_project_status', { limit: 'ten' });
    assert.match(wrongType.error, /limit/);
    const ok = await c.call('loom_get_project_status');
    assert.equal(ok.total_pipelines, 5);
  });

  it('counts calls with LOOM_TELEMETRY=1', async () => {
    const t = await c.call('loom_telemetry');
    assert.equal(t.enabled, true);
    assert.equal(t.tools.loom_get_project_status.calls, 2);
    assert.equal(t.tools.loom_get_project_status.refused, 1);
  });

  it('pins every tool’s input property names to loom’s', async () => {
    for (const group of ['session', 'context', 'memory']) await c.call('loom_load_tool_group', { group });
    const { tools } = await c.client.listTools();
    const inputs = Object.fromEntries(tools.map((t) => [t.name, Object.keys(t.inputSchema.properties ?? {})]));
    assert.deepEqual(inputs, LOOM_INPUTS);
    const status = tools.find((t) => t.name === 'loom_update_task_state')!;
    assert.deepEqual(status.inputSchema.required, ['task_id', 'status']);
    assert.deepEqual((status.inputSchema.properties as any).status.enum, ['pending', 'executing', 'reviewing', 'done', 'failed', 'blocked']);
    assert.equal(tools.find((t) => t.name === 'loom_trace')!.annotations?.readOnlyHint, true);
    assert.equal(tools.find((t) => t.name === 'loom_advance_pipeline')!.annotations?.readOnlyHint, false);
  });
});

describe('loom-vscode mcp: LOOM_LAZY_TOOLS=0 and the protocol versions', () => {
  let repo: TempRepo;
  before(() => {
    assertBuilt();
    repo = pipelineRepo();
  });
  after(() => repo.dispose());

  it('lists every tool at once, and refuses telemetry when it is off', async () => {
    const c = await connect(repo.root, { env: { LOOM_LAZY_TOOLS: '0' } });
    try {
      const { tools } = await c.client.listTools();
      assert.equal(tools.length, Object.keys(LOOM_INPUTS).length);
      assert.equal(c.client.getServerCapabilities()?.tools?.listChanged, false);
      await c.call('loom_load_tool_group', { group: 'pipeline' });
      assert.equal(c.listChanged(), 0);
      const t = await c.call('loom_telemetry');
      assert.match(t.error, /Telemetry is off/);
      assert.match(t.hint, /LOOM_TELEMETRY=1/);
    } finally {
      await c.close();
    }
  });

  for (const version of ['2025-11-25', '2025-06-18']) {
    it(`negotiates protocol version ${version} over newline-delimited JSON-RPC`, async () => {
      const child = spawn(process.execPath, [BIN, 'mcp', '--cwd', repo.root], { stdio: ['pipe', 'pipe', 'inherit'] });
      const lines = createInterface({ input: child.stdout });
      const first = once(lines, 'line');
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`);
      const [line] = (await first) as [string];
      const reply = JSON.parse(line);
      assert.equal(reply.result.protocolVersion, version);
      assert.equal(reply.result.serverInfo.name, 'loom-vscode');
      const exited = once(child, 'exit');
      child.stdin.end();
      const [code] = (await exited) as [number];
      assert.equal(code, 0, 'the server ends when the client closes stdin');
    });
  }
});
