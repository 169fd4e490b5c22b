import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeDispatch, renderTranscriptMarkdown } from '../../../src/core/executing/transcripts/transcriptMarkdown';
import type { TranscriptEntry } from '../../../src/core/executing/transcripts/transcriptStore';

const base = { dispatchId: 'd-1', spec: 'specs/2026-11-25+due-dates', task: 'T1', role: 'implementer' as const, mode: 'first' as const, model: 'scripted' };
const at = (s: number) => `2026-11-29T10:00:0${s}.000Z`;

test('a transcript reads as Markdown: header, prompt excerpt, reply, tool calls and results', () => {
  const entries: TranscriptEntry[] = [
    { ...base, at: at(0), kind: 'request', content: `You are the implementer subagent for task T1.\n${'x'.repeat(100)}` },
    { ...base, at: at(1), kind: 'reply', content: { text: 'Writing T1.', toolCalls: [{ callId: 'c1', name: 'loom_write_file', input: { path: 'src/due.js' } }] }, tokens: 40 },
    { ...base, at: at(2), kind: 'tool-call', content: { callId: 'c1', name: 'loom_write_file', input: { path: 'src/due.js', content: 'exports.x = 1;' } } },
    { ...base, at: at(3), kind: 'tool-result', content: { callId: 'c1', name: 'loom_write_file', outcome: 'ok', content: 'wrote src/due.js' } },
    { ...base, at: at(4), kind: 'reply', content: { text: '## Summary\nDone.\n\nSTATUS: DONE', toolCalls: [] }, tokens: 10 },
    { ...base, at: at(5), kind: 'error', content: 'the model stopped' },
  ];
  const md = renderTranscriptMarkdown(entries, { excerpt: 60 });
  assert.match(md, /^# T1 · implementer \(first\)\n/);
  assert.match(md, /- Spec: `specs\/2026-11-25\+due-dates`/);
  assert.match(md, /- Model: `scripted`/);
  assert.match(md, /- Tokens: 50/);
  assert.match(md, /## Prompt to the implementer · 2026-11-29 10:00:00 UTC\n\n```\nYou are the implementer subagent for task T1\./);
  assert.match(md, /… \(\d+ more characters\)/, 'the prompt is an excerpt');
  assert.ok(!md.includes('x'.repeat(100)));
  assert.match(md, /## Reply of the implementer · 2026-11-29 10:00:01 UTC, 40 tokens\n\nWriting T1\.\n\nTool calls: `loom_write_file`/);
  assert.match(md, /### Tool call `loom_write_file` · [^\n]+\n\n```json\n\{\n {2}"path": "src\/due.js"/);
  assert.match(md, /### Tool result `loom_write_file`: ok · [^\n]+\n\n```\nwrote src\/due.js\n```/);
  assert.match(md, /STATUS: DONE/);
  assert.match(md, /## Error · [^\n]+\n\n```\nthe model stopped\n```/);
});

test('text with backtick fences cannot close the block it is shown in', () => {
  const md = renderTranscriptMarkdown([{ ...base, at: at(0), kind: 'request', content: 'before\n```js\ncode\n```\nafter' }]);
  assert.match(md, /````\nbefore\n```js\ncode\n```\nafter\n````/);
});

test('an empty transcript, an unknown kind and odd content do not break the rendering', () => {
  assert.match(renderTranscriptMarkdown([]), /empty/);
  const md = renderTranscriptMarkdown([
    { ...base, at: at(0), kind: 'status' as TranscriptEntry['kind'], content: { constructor: 'x' } },
    { ...base, at: at(1), kind: 'reply', content: 'plain text reply' },
    { ...base, at: at(2), kind: 'tool-call', content: null },
  ]);
  assert.match(md, /## status ·/);
  assert.match(md, /plain text reply/);
  assert.match(md, /### Tool call `\?`/);
  assert.equal(describeDispatch({ task: 'test-reporter', role: 'test-reporter' }), 'test-reporter · test-reporter');
});
