import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { gitOutput, gitStream } from '../../../src/core/git/gitCommand';

const dir = mkdtempSync(join(tmpdir(), 'loom-git-env-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A stand-in for git that prints the two variables of its environment Loom sets. */
const standIn = join(dir, 'git');
writeFileSync(standIn, '#!/bin/sh\nprintf "flush=%s prompt=%s" "$GIT_FLUSH" "$GIT_TERMINAL_PROMPT"\n');
chmodSync(standIn, 0o755);

// Into a pipe git flushes after each record unless GIT_FLUSH=0: drift's log of 10,000 commits
// then took a sixth longer than into a file (src/core/git/gitCommand.ts, gitEnv).
test('every way of running git runs it fully buffered and without a prompt', async () => {
  const whole = await gitOutput(dir, ['log'], { binary: standIn });
  assert.equal(whole.stdout, 'flush=0 prompt=0');
  const withInput = await gitOutput(dir, ['update-index'], { binary: standIn, input: 'x\n' });
  assert.equal(withInput.stdout, 'flush=0 prompt=0');
  let streamed = '';
  await gitStream(dir, ['log'], (text) => (streamed += text), { binary: standIn });
  assert.equal(streamed, 'flush=0 prompt=0');
});

test("a caller's own environment still comes last", async () => {
  const r = await gitOutput(dir, ['log'], { binary: standIn, env: { GIT_FLUSH: '1' } });
  assert.equal(r.stdout, 'flush=1 prompt=0');
});
