import assert from 'node:assert/strict';
import { test } from 'node:test';
import { main } from '../../../src/cli/main';
import { request } from '../../../src/core/port/request';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { SPEC, state, TempRepo } from '../../helpers/tempRepo';

// A step whose outputs name its handoff asks for the word on compression (loom 3's
// _requiresStageCompression); each surface says how that word is given, the actor names none.
const WORKFLOW = `pipelines:
  feature:
    steps:
      - id: detail-expansion
        outputs: [requirements.json, handoffs/detail-expansion.json]
      - id: planning
`;

function repo() {
  const r = new TempRepo();
  r.write('.loom/workflow.yaml', WORKFLOW);
  r.write(`${SPEC}/pipeline.state.json`, state('detail-expansion'));
  r.write(`${SPEC}/handoffs/detail-expansion.json`, { stage: 'detail-expansion', status: 'done', summary: 'expanded' });
  return r;
}

test('the actor’s refusal names no surface’s flag: an MCP client never reads --compression-confirmed (issue 49)', async () => {
  const r = repo();
  try {
    // requirements.json missing too: the refusal carries every reason, as MCP passes them on.
    const refused = await request(new LoomRepository(r.root).load().get(SPEC)!, { type: 'advance' }, { confirm: true });
    assert.ok(refused.kind === 'refused', JSON.stringify(refused));
    const words = [refused.message, ...refused.reasons, ...(refused.check?.unmet ?? [])].join('\n');
    assert.match(words, /detail-expansion requires context compression before moving on/);
    assert.doesNotMatch(words, /--compression-confirmed|compression_confirmed/);
  } finally {
    r.dispose();
  }
});

test('the CLI says its own flag, once, where only the word on compression is missing', async () => {
  const r = repo();
  const err: string[] = [];
  try {
    r.write(`${SPEC}/requirements.json`, { requirements: [] });
    const code = await main(['advance', '--cwd', r.root, '--spec-dir', SPEC, '--confirm'], { out: () => undefined, err: (s) => err.push(s) });
    assert.equal(code, 1);
    const text = err.join('\n');
    assert.match(text, /requires context compression before moving on/);
    assert.equal(text.split('--compression-confirmed').length - 1, 1, text);
    assert.match(text, /run it again with --compression-confirmed/);
  } finally {
    r.dispose();
  }
});
