import assert from 'node:assert/strict';
import { it } from 'node:test';
import { parse } from 'jsonc-parser';
import { pluginFiles } from '../../../src/core/agentHost/agentHostFiles';
import { withLoomServer } from '../../../src/core/agentHost/mcpJson';

const written = (text: string | undefined) => {
  const edit = withLoomServer(text);
  assert.equal(edit.kind, 'written');
  return (edit as { text: string }).text;
};

// Loom: Write .mcp.json: the repository's file gets the server the plugin's .mcp.json starts.
it('a new .mcp.json starts the same server as the plugin’s', () => {
  assert.deepEqual(JSON.parse(written(undefined)), pluginFiles()['.mcp.json']);
  assert.deepEqual(JSON.parse(written('  \n')), pluginFiles()['.mcp.json']);
});

it('an existing file keeps its other servers and its comments; written again, nothing changes', () => {
  const before = '{\n  // the team’s servers\n  "mcpServers": {\n    "db": { "command": "db-mcp" },\n  },\n}\n';
  const after = written(before);
  assert.match(after, /\/\/ the team’s servers/);
  const value = parse(after, [], { allowTrailingComma: true });
  assert.deepEqual(value.mcpServers.db, { command: 'db-mcp' });
  assert.deepEqual(value.mcpServers.loom, { command: 'loom-vscode', args: ['mcp'] });
  assert.deepEqual(withLoomServer(after), { kind: 'unchanged' });
  // An old entry for loom is replaced.
  assert.deepEqual(parse(written('{ "mcpServers": { "loom": { "command": "loom", "args": ["mcp-serve"] } } }')).mcpServers.loom, { command: 'loom-vscode', args: ['mcp'] });
});

it('a file that does not parse is named and left alone', () => {
  for (const bad of ['{ "mcpServers": ', '[1, 2]']) {
    const edit = withLoomServer(bad);
    assert.equal(edit.kind, 'unreadable');
    assert.match((edit as { message: string }).message, /\.mcp\.json cannot be read/);
  }
});
