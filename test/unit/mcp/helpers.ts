import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, ToolListChangedNotificationSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { after, before } from 'node:test';
import { state, TempRepo } from '../../helpers/tempRepo';

export const PROJECT = resolve(__dirname, '../../..');
export const BIN = join(PROJECT, 'bin/loom-vscode.js');

export function assertBuilt(): void {
  assert.ok(existsSync(join(PROJECT, 'dist/cli.js')), 'dist/cli.js is missing: run "npm run build" first (npm test does)');
}

export interface LoomClient {
  client: Client;
  /** Calls a tool and parses the one JSON text item loom's tools answer. */
  call(name: string, args?: Record<string, unknown>): Promise<any>;
  /** How many notifications/tools/list_changed arrived. */
  listChanged(): number;
  /** The questions elicitation put to the person. */
  asked: string[];
  close(): Promise<void>;
}

export interface ConnectOptions {
  env?: Record<string, string>;
  /** Declares elicitation and answers each question with this. */
  answer?: (message: string) => ElicitResult;
  /** More arguments after `mcp --cwd <root>`; by default `--lang en`, so English texts do not depend on the machine's locale. */
  args?: string[];
}

/** The SDK's own client, spawning `loom-vscode mcp --cwd <root>` over stdio, as an agent's client does. */
export async function connect(root: string, options: ConnectOptions = {}): Promise<LoomClient> {
  const client = new Client({ name: 'loom-test', version: '1.0.0' }, { capabilities: options.answer ? { elicitation: { form: {} } } : {} });
  let changes = 0;
  const asked: string[] = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changes++;
  });
  if (options.answer) {
    const answer = options.answer;
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      const message = (request.params as { message: string }).message;
      asked.push(message);
      return answer(message);
    });
  }
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', '--cwd', root, ...(options.args ?? ['--lang', 'en'])],
    env: { ...(process.env as Record<string, string>), ...options.env },
    stderr: 'pipe',
  });
  await client.connect(transport);
  return {
    client,
    asked,
    listChanged: () => changes,
    async call(name, args = {}) {
      const result = await client.callTool({ name, arguments: args });
      const content = result.content as { type: string; text: string }[];
      assert.equal(content.length, 1, `${name} answers one content item`);
      assert.equal(content[0].type, 'text');
      return JSON.parse(content[0].text);
    },
    close: () => client.close(),
  };
}

/** What the CLI reads back from the same files (`loom-vscode status --json`). */
export function cliStatus(root: string, specDir: string): any {
  const r = spawnSync(process.execPath, [BIN, 'status', '--cwd', root, '--spec-dir', specDir, '--json'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

export const WORKFLOW = [
  'pipelines:',
  '  feature:',
  '    steps:',
  '      - { id: brainstorming, next: draft, outputs: [spec.md] }',
  '      - { id: draft, next: review, outputs: [spec.md] }',
  '      - { id: review, gate: human-approval, next: build, outputs: [plan.md] }',
  '      - { id: build, next: ship }',
  '      - { id: ship }',
  '',
].join('\n');

export const DRAFT = 'specs/2026-12-01+draft';
export const GATE = 'specs/2026-12-02+gate';
export const IDEA = 'specs/2026-12-03+idea';
export const BUILD = 'specs/2026-12-04+build';
export const BAD_STATE = 'specs/2026-12-05+bad-state';

const at = (specDir: string, stage: string) => ({ ...state(stage), spec_dir: specDir });

/**
 * One repository with a spec at each kind of stage: `draft` moves on by itself, `review` is a
 * human-approval gate, `brainstorming` is interactive (loom's schema), `build` holds tasks, and
 * one state file is truncated.
 */
export function pipelineRepo(): TempRepo {
  const r = new TempRepo('loom-mcp-');
  r.write('.loom/workflow.yaml', WORKFLOW);
  r.write('.loom/rules/constitution.md', '# Constitution\n\nPreamble.\n\n## Architecture\n\nA pure core.\n\n```md\n## not a section\n```\n\n## Testing\n\nNo timed assertions.\n');
  r.write(`${DRAFT}/pipeline.state.json`, at(DRAFT, 'draft'));
  r.write(`${DRAFT}/spec.md`, '# Draft\n');
  r.write(`${GATE}/pipeline.state.json`, at(GATE, 'review'));
  r.write(`${GATE}/spec.md`, '# Gate\n');
  r.write(`${GATE}/plan.md`, '# Plan\n');
  r.write(`${IDEA}/pipeline.state.json`, at(IDEA, 'brainstorming'));
  r.write(`${IDEA}/spec.md`, '# Idea\n');
  r.write(`${IDEA}/requirements.json`, { requirements: [] });
  r.write(`${BUILD}/pipeline.state.json`, at(BUILD, 'build'));
  r.write(`${BUILD}/spec.md`, '# Build\n');
  for (const id of ['T1', 'T2', 'T3']) r.write(`${BUILD}/tasks/${id}.md`, `---\nid: ${id}\nowns: [src/${id}.ts]\n---\n# ${id}\n`);
  r.write(`${BAD_STATE}/pipeline.state.json`, '{ "current_stage": "draft",\n');
  r.write(`${BAD_STATE}/spec.md`, '# Bad\n');
  return r;
}

/**
 * One server for a suite: before it, a fresh copy of the pipeline fixture served over stdio (handed
 * to `take`); after it, the client closed and the copy removed.
 */
export function serveFixture(take: (repo: TempRepo, client: LoomClient) => void, options: ConnectOptions = {}): void {
  let served: { repo: TempRepo; client: LoomClient } | undefined;
  before(async () => {
    assertBuilt();
    const repo = pipelineRepo();
    served = { repo, client: await connect(repo.root, options) };
    take(served.repo, served.client);
  });
  after(async () => {
    await served?.client.close();
    served?.repo.dispose();
  });
}
