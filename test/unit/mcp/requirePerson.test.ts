/**
 * `loom.approvals.requirePerson` (a team rule in the repository's .vscode/settings.json, read by the
 * server as by the CLI and the extension): the spec's actor refuses an approval or a confirmation that
 * is only the agent's word. Over MCP the person's answer is the client's elicitation; a client that
 * cannot elicit is refused with the rule named. loom itself (loom 3 tools.js loom_approve_gate) takes
 * the call as the agent's report that the user agreed, which stays the default. Every approval
 * records who gave it and through what (`approved_by`), which loom 3 keeps as an unknown key.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TempRepo } from '../../helpers/tempRepo';
import { cliStatus, connect, GATE, IDEA, pipelineRepo, type LoomClient } from './helpers';
import { assertBuilt } from './helpers';

const history = (repo: TempRepo, specDir: string) => (repo.json(`${specDir}/pipeline.state.json`) as { stage_history: Record<string, unknown>[] }).stage_history;

async function withServer(rule: boolean | undefined, answer: boolean | undefined, body: (repo: TempRepo, c: LoomClient) => Promise<void>): Promise<void> {
  assertBuilt();
  const repo = pipelineRepo();
  // As a team writes it: JSON with comments, the dotted key.
  if (rule !== undefined) repo.write('.vscode/settings.json', `{\n  // people approve, agents do not\n  "loom.approvals.requirePerson": ${rule},\n}\n`);
  const c = await connect(repo.root, answer === undefined ? {} : { answer: () => ({ action: 'accept', content: { confirm: answer } }) });
  try {
    await body(repo, c);
  } finally {
    await c.close();
    repo.dispose();
  }
}

describe('loom.approvals.requirePerson over MCP', () => {
  it('refuses an approval from a client that cannot ask the person, naming the rule; nothing is written', async () => {
    await withServer(true, undefined, async (repo, c) => {
      const before = repo.sha256(`${GATE}/pipeline.state.json`);
      const r = await c.call('loom_approve_gate', { spec_dir: GATE });
      assert.equal(r.ok, undefined);
      assert.equal(r.code, 'person-required');
      assert.match(r.error, /loom\.approvals\.requirePerson/);
      assert.match(r.error, /cannot leave review on an agent’s word/);
      assert.equal(repo.sha256(`${GATE}/pipeline.state.json`), before);
      assert.equal(cliStatus(repo.root, GATE).stage, 'review');
      // An interactive stage is refused the same way: there the agent's word never counted.
      const idea = await c.call('loom_approve_gate', { spec_dir: IDEA });
      assert.equal(idea.code, 'person-required');
      assert.equal(cliStatus(repo.root, IDEA).stage, 'brainstorming');
    });
  });

  it('takes the person’s answer to the client’s elicitation, and records it as such', async () => {
    await withServer(true, true, async (repo, c) => {
      const r = await c.call('loom_approve_gate', { spec_dir: GATE });
      assert.deepEqual([r.ok, r.from, r.to], [true, 'review', 'build']);
      assert.equal(c.asked.length, 1);
      const entry = history(repo, GATE).at(-1)!;
      assert.equal(entry.approval, 'user_confirmed');
      assert.deepEqual(entry.approved_by, { by: 'person', through: 'elicitation' });
      const moved = await c.call('loom_advance_pipeline', { spec_dir: IDEA });
      assert.equal(moved.ok, true);
      assert.deepEqual(history(repo, IDEA).at(-1)!.approved_by, { by: 'person', through: 'elicitation' });
    });
  });

  it('a “no” from the person is no, whatever the rule', async () => {
    await withServer(true, false, async (repo, c) => {
      const r = await c.call('loom_approve_gate', { spec_dir: GATE });
      assert.equal(r.code, 'user-declined');
      assert.equal(cliStatus(repo.root, GATE).stage, 'review');
    });
  });

  it('without the rule (loom’s behaviour) the agent’s word passes a gate, and the record says it was the agent’s', async () => {
    for (const rule of [undefined, false]) {
      await withServer(rule, undefined, async (repo, c) => {
        const r = await c.call('loom_approve_gate', { spec_dir: GATE });
        assert.equal(r.ok, true, JSON.stringify(r));
        const entry = history(repo, GATE).at(-1)!;
        assert.equal(entry.approval, 'user_confirmed');
        assert.deepEqual(entry.approved_by, { by: 'agent', through: 'mcp-agent-word' });
      });
    }
  });
});
