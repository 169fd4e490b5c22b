import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ModelRequestError, ModelUnavailableError, type ChatModel } from '../../../src/core/executing/dispatch/chatModel';
import { runPipeline, type RunPorts } from '../../../src/core/pipelineRun/pipelineRun';
import { stageNeed } from '../../../src/core/pipelineRun/personFirst';
import { AUTHORING } from '../../../src/core/authoring/stageCommands';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { freshSpec, GOOD } from '../authoring/authoringFixture';

// Issue 44, defect 5: Run Pipeline asks for what is really missing (an approval, a file a person
// can write) before it asks for a model. Reproduced on a copy of the sample's `tags`, whose
// spec.md and requirements.json a person wrote at brainstorming (a human-approval gate there).

delete process.env.NODE_TEST_CONTEXT;

const TAGS = 'specs/2026-11-28+tags';
/** What the selector throws with no model installed (src/host/lm/modelSelector.ts): role and tier first, then why. */
const NO_MODEL = () =>
  new ModelUnavailableError(
    'implementer (standard): no language model is available; install or sign in to a language model provider',
    'implementer',
    'standard',
    'no language model is available; install or sign in to a language model provider',
  );

function sampleCopy(): { root: string; dir: string; state(stage?: string): string; cleanup(): void } {
  const root = mkdtempSync(join(tmpdir(), 'loom-sample-'));
  cpSync(join(__dirname, '../../../sample'), root, { recursive: true });
  const dir = join(root, TAGS);
  const file = join(dir, 'pipeline.state.json');
  return {
    root,
    dir,
    state(stage) {
      const s = JSON.parse(readFileSync(file, 'utf8')) as { current_stage: string };
      if (stage) writeFileSync(file, JSON.stringify({ ...s, current_stage: stage }, null, 2));
      return stage ?? s.current_stage;
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Ports whose model is counted: the tests say whether a model was asked for at all. */
function ports(model: () => Promise<ChatModel>): RunPorts & { modelAsked: number } {
  const p = {
    mode: 'autopilot' as const,
    signal: new AbortController().signal,
    modelAsked: 0,
    model: () => {
      p.modelAsked++;
      return model();
    },
    reviewDrafts: async () => true,
    confirm: async () => true,
    runTasks: async () => ({ kind: 'refused' as const, message: 'not in these tests' }),
    createWorktree: async () => assert.fail('no worktree in these tests'),
    verify: async () => assert.fail('no verification in these tests'),
    sync: async () => assert.fail('no sync in these tests'),
  };
  return p;
}

test('tags: with its files written and only the approval missing, the run says it is ready for approval, asks no model, drafts nothing', async () => {
  const s = sampleCopy();
  try {
    const spec = new LoomRepository(s.root).get(TAGS)!;
    const before = readFileSync(join(s.dir, 'spec.md'), 'utf8');
    const p = ports(async () => {
      throw NO_MODEL();
    });
    const stop = await runPipeline(spec, p);
    assert.equal(stop.reason, 'approval-gate', stop.message);
    assert.equal(stop.stage, 'brainstorming');
    assert.match(stop.message, /^brainstorming is ready for your approval: its files are written \(spec\.md, requirements\.json\) and pass its checks\./);
    assert.match(stop.message, /approve it to move on to detail-expansion/);
    assert.doesNotMatch(stop.message, /implementer|standard|language model/);
    assert.equal(p.modelAsked, 0, 'no model is asked for');
    assert.deepEqual(
      stop.stages.map((r) => [r.stage, r.rounds, r.wrote]),
      [['brainstorming', 0, []]],
    );
    assert.equal(readFileSync(join(s.dir, 'spec.md'), 'utf8'), before);
    assert.equal(s.state(), 'brainstorming');
  } finally {
    s.cleanup();
  }
});

test('a file the stage’s drafting may not write stops the run for the person, naming it, before any model is asked', async () => {
  const s = sampleCopy();
  try {
    s.state('planning');
    writeFileSync(join(s.dir, 'requirements.json'), '{"requirements": [');
    const spec = new LoomRepository(s.root).get(TAGS)!;
    assert.deepEqual(stageNeed(spec, 'planning', AUTHORING.plan), {
      kind: 'input',
      file: 'requirements.json',
      reasons: ['requirements.json is not valid JSON at line 1, column 19: unexpected end of file'],
    });
    const p = ports(async () => assert.fail('no model is asked for'));
    const stop = await runPipeline(spec, p);
    assert.equal(stop.reason, 'missing-input', stop.message);
    assert.equal(stop.file, 'requirements.json');
    assert.match(stop.message, /^planning needs requirements\.json first, which the model drafting planning may not write: requirements\.json is not valid JSON at line 1, column 19/);
    assert.equal(p.modelAsked, 0);
  } finally {
    s.cleanup();
  }
});

test('a state that does not parse stops the run for the person at the file, not with Recover, and no model is asked', async () => {
  const s = sampleCopy();
  try {
    writeFileSync(join(s.dir, 'pipeline.state.json'), '{ "current_stage": "brainst');
    const spec = new LoomRepository(s.root).get(TAGS)!;
    const p = ports(async () => assert.fail('no model is asked for'));
    const stop = await runPipeline(spec, p);
    assert.equal(stop.reason, 'unreadable-state', stop.message);
    assert.equal(stop.file, 'pipeline.state.json');
    assert.match(stop.message, /^pipeline\.state\.json cannot be read, so the stage is unknown/);
    assert.equal(p.modelAsked, 0);
  } finally {
    s.cleanup();
  }
});

test('files a person wrote that pass the checks are moved on, not drafted again; the next stage’s missing model is said without role jargon', async () => {
  // loom's own workflow (no .loom/workflow.yaml): brainstorming is interactive, not a human-approval gate.
  const f = freshSpec(GOOD.brainstorm);
  try {
    const spec = new LoomRepository(f.root).get(f.specDir)!;
    assert.deepEqual(stageNeed(spec, 'brainstorming', AUTHORING.brainstorm), { kind: 'move' });
    const p = ports(async () => {
      throw NO_MODEL();
    });
    const stop = await runPipeline(spec, p);
    assert.equal(stop.stages[0].stage, 'brainstorming');
    assert.ok(stop.stages[0].transcript.includes('brainstorming’s files are written and pass its checks: moving on without asking the model.'), stop.stages[0].transcript.join('\n'));
    assert.equal(stop.reason, 'model-unavailable');
    assert.equal(stop.stage, 'detail-expansion');
    assert.equal(stop.message, 'No language model could draft detail-expansion: no language model is available; install or sign in to a language model provider');
    assert.equal(p.modelAsked, 1, 'asked once, where the stage’s own file is to be drafted');
    assert.equal(spec.snapshot.state?.current_stage, 'detail-expansion');
  } finally {
    f.cleanup();
  }
});

test('a model that still cannot be reached after its retries stops the run as a model error, not a refusal', async () => {
  const f = freshSpec();
  try {
    const spec = new LoomRepository(f.root).get(f.specDir)!;
    const cause = Object.assign(new Error('Rate limit exceeded'), { name: 'ChatRateLimited' });
    const gaveUp = new ModelRequestError(`the model could not be reached after 4 tries (a rate limit or the network): ${cause.message}`, 'Unknown', cause);
    const model: ChatModel = {
      id: 'm',
      vendor: 'v',
      family: 'f',
      maxInputTokens: 1000,
      // eslint-disable-next-line require-yield
      async *sendRequest() {
        throw gaveUp;
      },
      countTokens: async (text: string) => text.length,
    };
    const stop = await runPipeline(
      spec,
      ports(async () => model),
    );
    assert.equal(stop.reason, 'model-error', stop.message);
    assert.equal(stop.stage, 'brainstorming');
    assert.match(stop.message, /^The model could not be reached at brainstorming \(the model could not be reached after 4 tries .*Rate limit exceeded\); nothing was written\./);
  } finally {
    f.cleanup();
  }
});
