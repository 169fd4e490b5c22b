import assert from 'node:assert/strict';
import test from 'node:test';
import { buildAuthoringMessages, buildRepairMessage, loadAuthoringTemplates } from '../../../src/core/authoring/authoringPrompts';
import { checkDrafts } from '../../../src/core/authoring/draftCheck';
import { runDraftingTurn, type DraftingEvent } from '../../../src/core/authoring/draftingTurn';
import { AUTHORING } from '../../../src/core/authoring/stageCommands';
import { block, freshSpec, GOOD, QueueModel } from './authoringFixture';

const templates = loadAuthoringTemplates(undefined, 'en');

function turn(s: ReturnType<typeof freshSpec>, model: QueueModel, events: DraftingEvent[], pending = GOOD.brainstorm.slice(0, 0)) {
  return runDraftingTurn({
    model,
    messages: buildAuthoringMessages({ command: AUTHORING.brainstorm, templates, dir: s.dir, specDir: s.specDir, stage: 'brainstorming', request: 'tags for todos', drafts: pending, history: [] }),
    specDir: s.specDir,
    command: AUTHORING.brainstorm,
    pending,
    check: (d) => checkDrafts(s.root, s.specDir, AUTHORING.brainstorm, d),
    repairMessage: (p) => buildRepairMessage(templates, p),
    onEvent: (e) => events.push(e),
    signal: new AbortController().signal,
  });
}

test('a reply without files is conversation: nothing is checked or proposed', async () => {
  const s = freshSpec();
  try {
    const events: DraftingEvent[] = [];
    const model = new QueueModel(['Three approaches:\n1. tags on the todo\n2. a tag table\n3. labels as strings\nWhich one?']);
    const r = await turn(s, model, events);
    assert.deepEqual([r.proposed, r.drafts.length, r.repairs], [false, 0, 0]);
    assert.ok(events.every((e) => e.type === 'prose'));
    const prompt = model.requests[0].at(-1)!.content as string;
    assert.match(prompt, /explore 2–3 distinct approaches/);
    assert.match(prompt, /You may write only: spec\.md, requirements\.json\./);
    assert.match(prompt, new RegExp(`Feature: ${s.specDir.replace('+', '\\+')}`));
  } finally {
    s.cleanup();
  }
});

test('failing drafts are sent back with the problems; a corrected file passes after one repair', async () => {
  const s = freshSpec();
  try {
    const badSpec = '# Tags\n\n## REQ-001 Tag a todo\n';
    const events: DraftingEvent[] = [];
    const model = new QueueModel([`Here is a first cut.\n${block({ path: 'spec.md', content: badSpec })}${block(GOOD.brainstorm[1])}`, `Fixed.\n${block(GOOD.brainstorm[0])}`]);
    const r = await turn(s, model, events);
    assert.deepEqual([r.proposed, r.repairs, r.problems], [true, 1, []]);
    assert.deepEqual(
      r.drafts.map((d) => d.path),
      ['spec.md', 'requirements.json'],
    );
    assert.equal(r.drafts[0].content, GOOD.brainstorm[0].content);
    const repair = model.requests[1].at(-1)!.content as string;
    assert.match(repair, /do not pass loom's checks yet:\n- requirements\.json declares REQ-002 but spec\.md does not name it/);
    assert.equal(model.requests[1].at(-2)!.role, 'assistant');
    assert.deepEqual(
      events.filter((e) => e.type === 'repair').map((e) => (e as { attempt: number }).attempt),
      [1],
    );
  } finally {
    s.cleanup();
  }
});

test('at most two repairs: the remaining problems are returned, not hidden', async () => {
  const s = freshSpec();
  try {
    const bad = `${block({ path: 'spec.md', content: '# Tags\n\n## REQ-001 only\n' })}${block(GOOD.brainstorm[1])}`;
    const model = new QueueModel([bad, bad, bad, 'never asked']);
    const r = await turn(s, model, []);
    assert.equal(model.requests.length, 3);
    assert.equal(r.repairs, 2);
    assert.deepEqual(r.problems, ['requirements.json declares REQ-002 but spec.md does not name it']);
  } finally {
    s.cleanup();
  }
});

test("prompts follow the spec's language and a repository may override any of them in .loom/prompts/", async () => {
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const s = freshSpec();
  try {
    const zh = loadAuthoringTemplates(s.root, 'zh');
    assert.match(zh.templates['plan-prompt'], /你是 loom 的 planning 阶段/);
    mkdirSync(join(s.root, '.loom', 'prompts'), { recursive: true });
    writeFileSync(join(s.root, '.loom', 'prompts', 'plan-prompt.zh.md'), '我们自己的规划提示：{{spec_dir}} 只写 {{writes}}');
    const own = loadAuthoringTemplates(s.root, 'zh');
    assert.deepEqual(own.overridden, ['.loom/prompts/plan-prompt.zh.md']);
    const messages = buildAuthoringMessages({
      command: AUTHORING.plan,
      templates: own,
      dir: s.dir,
      specDir: s.specDir,
      stage: 'planning',
      request: '',
      drafts: [],
      history: [{ role: 'user', content: 'earlier' }],
    });
    assert.deepEqual(
      messages.map((m) => m.role),
      ['user', 'user'],
    );
    assert.equal(messages[1].content, `我们自己的规划提示：${s.specDir} 只写 plan.md, tasks/T1.md … tasks/TN.md, traceability.json`);
    assert.equal(loadAuthoringTemplates(s.root, 'en').overridden.length, 0);
  } finally {
    s.cleanup();
  }
});

// Issue 44 defect 2: at code-review-request the model drafted review-feedback.md and
// pipeline.state.json beside its file; its correction held only its own file, yet the refused ones
// stayed in the set and the run stopped with "The checks still fail after 2 corrections".
test('a file the command may not write is refused by name and never enters the drafts', async () => {
  const s = freshSpec();
  try {
    const events: DraftingEvent[] = [];
    const extra = [
      { path: 'review-feedback.md', content: '# Feedback\n' },
      { path: 'pipeline.state.json', content: '{"current_stage":"synced"}\n' },
    ];
    const model = new QueueModel([`${GOOD.brainstorm.map(block).join('')}${extra.map(block).join('')}`, 'never asked']);
    const r = await turn(s, model, events);
    assert.deepEqual(
      r.drafts.map((d) => d.path),
      ['spec.md', 'requirements.json'],
    );
    assert.deepEqual(r.problems, []);
    assert.deepEqual(
      r.refused.map((x) => x.path),
      ['review-feedback.md', 'pipeline.state.json'],
    );
    assert.match(r.refused[1].reason, /pipeline\.state\.json is not a file \/brainstorm may write \(only spec\.md, requirements\.json\)/);
    assert.deepEqual(
      events.filter((e) => e.type === 'refused').map((e) => (e as { path: string }).path),
      ['review-feedback.md', 'pipeline.state.json'],
    );
    assert.equal(model.requests.length, 1);
  } finally {
    s.cleanup();
  }
});

test('a reply of refused files only is sent back with the reason, and the correction replaces it', async () => {
  const s = freshSpec();
  try {
    const model = new QueueModel([block({ path: 'pipeline.state.json', content: '{}\n' }), GOOD.brainstorm.map(block).join('')]);
    const r = await turn(s, model, []);
    assert.equal(r.repairs, 1);
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.refused, []);
    assert.deepEqual(
      r.drafts.map((d) => d.path),
      ['spec.md', 'requirements.json'],
    );
    assert.match(model.requests[1].at(-1)!.content as string, /pipeline\.state\.json is not a file \/brainstorm may write/);
  } finally {
    s.cleanup();
  }
});

test('a correction withdraws a file it proposed before with a WITHDRAW line', async () => {
  const s = freshSpec([GOOD.brainstorm[0]]);
  try {
    const badSpec = { path: 'spec.md', content: '# Tags\n\n## REQ-001 only\n', complete: true };
    const events: DraftingEvent[] = [];
    const model = new QueueModel([`I take my spec.md back.\n=== WITHDRAW: spec.md ===\n${block(GOOD.brainstorm[1])}`]);
    const r = await turn(s, model, events, [badSpec]);
    assert.deepEqual(r.problems, []);
    assert.deepEqual(
      r.drafts.map((d) => d.path),
      ['requirements.json'],
    );
    assert.ok(events.some((e) => e.type === 'withdraw' && e.path === 'spec.md'));
  } finally {
    s.cleanup();
  }
});
