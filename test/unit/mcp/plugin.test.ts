/**
 * The plugin Loom ships beside its skills and agents (plugin/, src/core/agentHost/agentHostFiles.ts):
 * its .mcp.json starts a server that the MCP SDK's own client lists and calls, and its Stop and
 * SubagentStop hook, run as VS Code runs a hook command (JSON on stdin, in the workspace folder),
 * keeps an agent working while Loom says a task is not done and lets it stop once it is.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { SPEC, plannedSpec, state, TempRepo } from '../../helpers/tempRepo';
import { assertBuilt, BIN, PROJECT } from './helpers';

const pluginJson = (file: string) => JSON.parse(readFileSync(join(PROJECT, 'plugin', file), 'utf8'));
// `loom-vscode` as package.json's bin names it: what a global install puts on the PATH.
const BIN_NAME = Object.keys(JSON.parse(readFileSync(join(PROJECT, 'package.json'), 'utf8')).bin)[0];
const asInstalled = (command: string, args: readonly string[]) => {
  assert.equal(command, BIN_NAME);
  return { command: process.execPath, args: [BIN, ...args] };
};

describe('the plugin', () => {
  it('has a manifest naming its skills, agents, hooks and MCP servers', () => {
    const manifest = pluginJson('plugin.json');
    assert.equal(manifest.name, 'loom');
    assert.deepEqual([manifest.skills, manifest.agents, manifest.hooks, manifest.mcpServers], ['skills', 'agents', 'hooks.json', '.mcp.json']);
  });

  it('.mcp.json starts loom-vscode mcp, which a real MCP client lists and calls in the folder it is started in', async () => {
    assertBuilt();
    const server = pluginJson('.mcp.json').mcpServers.loom;
    assert.deepEqual([server.command, ...server.args], [BIN_NAME, 'mcp']);
    const repo = new TempRepo('loom-plugin-');
    plannedSpec(repo);
    repo.write(`${SPEC}/pipeline.state.json`, state('executing'));
    const { command, args } = asInstalled(server.command, server.args);
    const client = new Client({ name: 'loom-plugin-test', version: '1.0.0' });
    try {
      await client.connect(new StdioClientTransport({ command, args, cwd: repo.root, env: { ...(process.env as Record<string, string>), LOOM_LAZY_TOOLS: '0' }, stderr: 'pipe' }));
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      assert.ok(names.includes('loom_get_project_status') && names.includes('loom_approve_gate'), names.join(', '));
      const result = await client.callTool({ name: 'loom_get_project_status', arguments: {} });
      const status = JSON.parse((result.content as { text: string }[])[0].text);
      assert.equal(JSON.stringify(status).includes(SPEC), true, JSON.stringify(status));
    } finally {
      await client.close();
      repo.dispose();
    }
  });

  describe('the Stop and SubagentStop hooks', () => {
    const hooks = pluginJson('hooks.json').hooks;
    const run = (root: string, input: Record<string, unknown>) => {
      const [name, ...args] = (hooks.Stop[0].command as string).split(' ');
      const { command, args: full } = asInstalled(name, args);
      const r = spawnSync(command, full, { cwd: root, input: JSON.stringify({ timestamp: new Date().toISOString(), cwd: root, sessionId: 's1', ...input }), encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      return JSON.parse(r.stdout);
    };

    it('are one command for both events', () => {
      assert.deepEqual(hooks.SubagentStop, hooks.Stop);
      assert.equal(hooks.Stop[0].type, 'command');
    });

    it('keep the agent working while a task is under way, with Loom’s reasons, and let it stop once it is done', () => {
      assertBuilt();
      const repo = new TempRepo('loom-hook-');
      try {
        plannedSpec(repo);
        repo.write(`${SPEC}/pipeline.state.json`, state('executing'));
        repo.write(`${SPEC}/task-states/T1.state.json`, { task_id: 'T1', spec_dir: SPEC, status: 'executing', retry_count: 0 });
        const kept = run(repo.root, { hookEventName: 'Stop', stop_hook_active: false });
        assert.equal(kept.decision, 'block');
        assert.match(kept.reason, /task T1 is executing, not done/);
        assert.deepEqual(kept.hookSpecificOutput, { hookEventName: 'Stop', decision: 'block', reason: kept.reason });
        const sub = run(repo.root, { hookEventName: 'SubagentStop', stop_hook_active: false, agent_id: 'a1', agent_type: 'loom-implementer' });
        assert.equal(sub.hookSpecificOutput.hookEventName, 'SubagentStop');
        // Kept once already: it stops rather than loop, and the person still reads why.
        const again = run(repo.root, { hookEventName: 'Stop', stop_hook_active: true });
        assert.equal(again.decision, undefined);
        assert.match(again.systemMessage, /task T1 is executing/);
        repo.write(`${SPEC}/task-states/T1.state.json`, { task_id: 'T1', spec_dir: SPEC, status: 'done', retry_count: 0 });
        assert.deepEqual(run(repo.root, { hookEventName: 'Stop', stop_hook_active: false }), { continue: true });
      } finally {
        repo.dispose();
      }
    });
  });
});
