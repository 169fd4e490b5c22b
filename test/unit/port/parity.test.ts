import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { request } from '../../../src/core/port/request';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { assertBuilt, BIN, connect } from '../mcp/helpers';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- shared with the integration suite, which is plain JS
const { CASES, writeParitySpecs, writeThreadsRule } = require('../../support/parityFixtures.js') as typeof import('../../support/parityFixtures');

/**
 * One port, the same answer: the same intent (Advance) through the spec's actor directly, the CLI
 * and the MCP server (the SDK's client) on the same fixtures gives the same outcome and the same
 * refusal code; the team's rule holds for an agent as for a person. The language-model tools and
 * the palette are held to the same fixtures in code-server (test/integration/basic/98-parity).
 */

type Outcome = { kind: string; code?: string; to?: string | null };

function cli(root: string, ...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args, '--cwd', root, '--lang', 'en'], { env: { ...process.env, XDG_CACHE_HOME: join(root, '.cache') } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

/** The CLI's answer as an outcome: exit 0 a change; with --json, the actor's first code. */
async function throughCli(root: string, specDir: string, confirm = false): Promise<Outcome> {
  const r = await cli(root, 'advance', '--spec-dir', specDir, '--json', ...(confirm ? ['--confirm'] : []));
  const doc = r.out ? JSON.parse(r.out) : {};
  if (r.code === 0) return { kind: 'changed', to: doc.to };
  if (doc.codes?.includes('confirmation-required')) return { kind: 'needs-confirmation' };
  return { kind: 'refused', code: doc.codes?.[0] ?? doc.code };
}

/** The MCP server's answer as an outcome: `ok` a change; a refusal's `codes` are the actor's. */
function mcpOutcome(r: { ok?: boolean; to?: string; codes?: string[]; code?: string }): Outcome {
  if (r.ok) return { kind: 'changed', to: r.to };
  if (r.codes?.includes('confirmation-required')) return { kind: 'needs-confirmation' };
  return { kind: 'refused', code: r.codes?.[0] ?? r.code };
}

async function throughPort(root: string, specDir: string, confirm = false): Promise<Outcome> {
  const spec = new LoomRepository(root).load().get(specDir)!;
  const a = await request(spec, { type: 'advance' }, confirm ? { confirm: true } : {});
  return a.kind === 'refused' ? { kind: a.kind, code: a.code } : a.kind === 'changed' ? { kind: a.kind, to: a.to } : { kind: a.kind };
}

describe('one port: every surface gives the same answer to Advance on the same spec', () => {
  let root: string;
  let specs: ReturnType<typeof writeParitySpecs>;

  before(() => {
    assertBuilt();
    root = mkdtempSync(join(tmpdir(), 'loom-parity-'));
    specs = writeParitySpecs(root, process.ppid);
    writeThreadsRule(root, true);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('the actor, the CLI and the MCP server agree on every case, and nothing is written', async () => {
    const mcp = await connect(root);
    try {
      for (const c of specs) {
        const before = readFileSync(join(c.dir, 'pipeline.state.json'), 'utf8');
        const port = await throughPort(root, c.specDir);
        const viaCli = await throughCli(root, c.specDir);
        const viaMcp = mcpOutcome(await mcp.call('loom_advance_pipeline', { spec_dir: c.specDir }));
        assert.deepEqual(port, c.expect, `${c.name}: the actor`);
        assert.deepEqual(viaCli, c.expect, `${c.name}: the CLI`);
        assert.deepEqual(viaMcp, c.expect, `${c.name}: MCP`);
        assert.equal(readFileSync(join(c.dir, 'pipeline.state.json'), 'utf8'), before, `${c.name}: nothing written`);
      }
    } finally {
      await mcp.close();
    }
    assert.deepEqual(
      CASES.map((c: { name: string }) => c.name),
      specs.map((c) => c.name),
    );
  });

  it('with the person’s word, each surface makes the same change', async () => {
    const ready = specs.find((c) => c.name === 'ready')!;
    const copies = ['port', 'cli', 'mcp'].map((s) => {
      const specDir = `${ready.specDir}-${s}`;
      cpSync(ready.dir, join(root, specDir), { recursive: true });
      return specDir;
    });
    const mcp = await connect(root, { answer: () => ({ action: 'accept', content: { confirm: true } }) });
    try {
      const outcomes = [await throughPort(root, copies[0], true), await throughCli(root, copies[1], true), mcpOutcome(await mcp.call('loom_advance_pipeline', { spec_dir: copies[2] }))];
      for (const o of outcomes) assert.deepEqual(o, { kind: 'changed', to: 'detail-expansion' });
    } finally {
      await mcp.close();
    }
  });

  it("the team's rule holds for an agent: with it off, the same open thread is only a warning in the question", async () => {
    writeThreadsRule(root, false);
    try {
      const c = specs.find((x) => x.name === 'open-threads')!;
      assert.deepEqual(await throughCli(root, c.specDir), { kind: 'needs-confirmation' });
      const mcp = await connect(root);
      try {
        assert.deepEqual(mcpOutcome(await mcp.call('loom_advance_pipeline', { spec_dir: c.specDir })), { kind: 'needs-confirmation' });
      } finally {
        await mcp.close();
      }
    } finally {
      writeThreadsRule(root, true);
    }
  });

  it('racing surfaces on one spec: exactly one move wins, and it is recorded once', async () => {
    const ready = specs.find((c) => c.name === 'ready')!;
    const specDir = `${ready.specDir}-race`;
    cpSync(ready.dir, join(root, specDir), { recursive: true });
    const mcp = await connect(root, { answer: () => ({ action: 'accept', content: { confirm: true } }) });
    try {
      const outcomes = await Promise.all([
        throughCli(root, specDir, true),
        throughCli(root, specDir, true),
        mcp.call('loom_advance_pipeline', { spec_dir: specDir }).then(mcpOutcome),
        throughPort(root, specDir, true),
      ]);
      const moved = outcomes.filter((o) => o.kind === 'changed');
      assert.equal(moved.length, 1, JSON.stringify(outcomes));
      assert.equal(moved[0].to, 'detail-expansion');
      const state = JSON.parse(readFileSync(join(root, specDir, 'pipeline.state.json'), 'utf8'));
      assert.equal(state.current_stage, 'detail-expansion');
      assert.equal(state.stage_history.filter((h: { stage: string }) => h.stage === 'brainstorming').length, 1, 'the move is recorded once');
    } finally {
      await mcp.close();
    }
  });
});
