import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { ChatMessage, ChatModel, ChatRequestOptions, ChatResponsePart } from '../../../src/core/executing/dispatch/chatModel';
import { runPipeline } from '../../../src/core/pipelineRun/pipelineRun';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { freshSpec } from '../authoring/authoringFixture';
import { autopilotPorts } from './autopilotPorts';

// Found by the end-to-end test in VS Code (test/integration/endToEnd): Stop Pipeline while the model
// drafts. VS Code's providers end the stream quietly when cancelled, so the drafting turn came back
// with an empty reply and the run said "the model answered without files" (model-refused) instead
// of stopping. A stopped run says it stopped, and writes none of the stage's files.

delete process.env.NODE_TEST_CONTEXT;

/** A model that answers only when cancelled, and then with nothing, as a VS Code provider does. */
class SilentWhenCancelled implements ChatModel {
  readonly id = 'silent';
  readonly vendor = 'test';
  readonly family = 'silent';
  readonly maxInputTokens = 100000;
  asked = 0;
  constructor(private readonly onAsked: () => void) {}

  async *sendRequest(_messages: readonly ChatMessage[], options: ChatRequestOptions): AsyncIterable<ChatResponsePart> {
    this.asked++;
    this.onAsked();
    await new Promise((resolve) => options.signal.addEventListener('abort', resolve, { once: true }));
    yield* [];
  }

  async countTokens(text: string): Promise<number> {
    return Math.ceil(text.length / 4);
  }
}

test('Stop while the model drafts: the run stops at once, as stopped, and the stage’s files are untouched', async () => {
  const f = freshSpec();
  try {
    const spec = new LoomRepository(f.root).get(f.specDir)!;
    const files = () =>
      readdirSync(f.dir, { recursive: true })
        .map(String)
        .filter((p) => !p.startsWith('transcripts'))
        .sort();
    const before = files();
    const controller = new AbortController();
    const model = new SilentWhenCancelled(() => setTimeout(() => controller.abort(), 10));
    const ports = autopilotPorts(spec, async () => model, {
      signal: controller.signal,
      createWorktree: async () => assert.fail('no worktree'),
      verify: async () => assert.fail('no verification'),
    });
    const stop = await runPipeline(spec, ports);
    assert.equal(stop.reason, 'stopped', stop.message);
    assert.equal(stop.stage, 'brainstorming');
    assert.equal(model.asked, 1);
    assert.deepEqual(files(), before);
    assert.equal(spec.snapshot.state?.current_stage, 'brainstorming');
    assert.match(readFileSync(join(f.dir, 'transcripts', 'run-brainstorming.md'), 'utf8'), /Stopped at brainstorming: nothing half-written/);
  } finally {
    f.cleanup();
  }
});
