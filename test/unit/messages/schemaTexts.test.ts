import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bundledPipelineSchema } from '../../../src/core/pipeline/pipelineSchema';
import { schemaText, stageDescription, transitionDescription } from '../../../src/core/messages';
import { pipelineTextMessages } from '../../../src/core/messages/pipelineTexts';

const schema = bundledPipelineSchema() as unknown as {
  states: Record<string, { description?: string; preconditions?: { description?: string }[] }>;
  transitions: { from: string; to: string; description?: string }[];
};

test("every Chinese text of the table is loom's own, word for word, at the place its key names", () => {
  for (const [key, entry] of Object.entries(pipelineTextMessages)) {
    const [kind, ...rest] = key.split('.');
    let text: string | undefined;
    if (kind === 'stage') text = schema.states[rest[0]]?.description;
    else if (kind === 'transition') text = schema.transitions.find((t) => t.from === rest[0] && t.to === rest[1])?.description;
    else if (kind === 'precondition') text = schema.states[rest[0]]?.preconditions?.[Number(rest[1]) - 1]?.description;
    assert.equal(entry.zh, text, `${key} is not the schema's text`);
  }
});

test('every stage and transition of the schema that has a description has an English text', () => {
  for (const [id, state] of Object.entries(schema.states)) {
    if (state.description) assert.notEqual(stageDescription(id, state.description, 'en'), state.description, `stage ${id}`);
  }
  for (const t of schema.transitions) {
    if (t.description) assert.notEqual(transitionDescription(t.from, t.to, t.description, 'en'), t.description, `${t.from} → ${t.to}`);
  }
  for (const state of Object.values(schema.states)) {
    for (const p of state.preconditions ?? []) if (p.description) assert.notEqual(schemaText(p.description, 'en'), p.description, p.description);
  }
});

test("the English label of Back to executing; loom's Chinese in Chinese; a team's own text as written", () => {
  const blocker = 'BLOCKER 派回 implementer 修复（增量模式：只传递修复指令 + subagent-context）';
  assert.match(transitionDescription('verification', 'executing', blocker, 'en')!, /^BLOCKERs go back to the implementer/);
  assert.equal(transitionDescription('verification', 'executing', blocker, 'zh'), blocker);
  assert.equal(stageDescription('planning', 'Our own planning words', 'en'), 'Our own planning words');
  assert.equal(stageDescription('custom-stage', '自定义阶段', 'en'), '自定义阶段');
  assert.equal(stageDescription('planning', undefined, 'en'), undefined);
  assert.equal(schemaText('所有测试通过', 'en'), 'All tests pass');
});
