import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { runPipeline } from '../../../src/core/pipelineRun/pipelineRun';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { block, QueueModel } from '../authoring/authoringFixture';
import { GREETING, greetingAtVerification } from '../verification/greetingRepo';
import { autopilotPorts } from './autopilotPorts';

const REVIEW = '# Code review request: greeting\n\n## Summary\n\nGreets a person by name (REQ-001).\n\n## Verification\n\nverify-report.md: PASS.\n';

test('a Run Pipeline transcript of several lines does not read the spec again per line: the spec is read by its requests and changes only', async () => {
  const r = greetingAtVerification();
  const original = fs.readFileSync;
  try {
    const spec = new LoomRepository(r.root).get(GREETING)!;
    const state = r.path(`${GREETING}/pipeline.state.json`);
    let stateReads = 0;
    let heard = 0;
    spec.onDidChange(() => heard++);
    fs.readFileSync = function (this: unknown, path: fs.PathOrFileDescriptor, ...rest: unknown[]) {
      if (String(path) === state) stateReads++;
      return (original as (...a: unknown[]) => unknown).call(this, path, ...rest);
    } as typeof fs.readFileSync;
    /** Each line said, with the reads of the spec's state file made since the line before. */
    const lines: { line: string; reads: number }[] = [];
    let seen = 0;
    const ports = autopilotPorts(spec, async () => new QueueModel([`I reviewed the diff.\n\n${block({ path: 'review-request.md', content: REVIEW })}`]), {
      onEvent: (_stage, line) => {
        lines.push({ line, reads: stateReads - seen });
        seen = stateReads;
      },
    });
    const stop = await runPipeline(spec, ports);
    fs.readFileSync = original;
    assert.equal(stop.reason, 'review-gate', stop.message);
    assert.ok(lines.length >= 10, `several lines (${lines.length})`);
    // Reads come only with what a request or a change of the spec wrote (the verification, a move,
    // the drafting's credits, the drafts): before, each step read the spec again (the drafting's
    // first line and the review gate's came after a read of their own), and the drafts' write
    // read it four times.
    const writes = /^(Verification|Moved|The drafting used|Wrote)/;
    const readFor = lines.filter((l) => l.reads > 0 && !writes.test(l.line));
    assert.deepEqual(readFor, [], "no line but a write's comes after a read of the spec");
    assert.ok(
      lines.filter((l) => /^Wrote/.test(l.line)).every((l) => l.reads === 1),
      'the drafts written: the spec read once after them',
    );
    assert.ok(stateReads < lines.length, `fewer reads of the state (${stateReads}) than lines (${lines.length})`);
    // The views hear of each request or change once, not of each line.
    assert.ok(heard < lines.length / 1.5, `the views told ${heard} times for ${lines.length} lines`);
  } finally {
    fs.readFileSync = original;
    r.dispose();
  }
});
