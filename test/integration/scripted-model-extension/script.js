'use strict';
/**
 * The scripted replies, without vscode: given the conversation as plain messages
 * ({ role: 'user' | 'assistant', text, toolResults: number }), returns the next reply
 * ({ text, toolCalls: [{ name, input }] }). The implementer writes the task's files through
 * loom_write_file, then reports DONE; the reviewer and the test reporter say PASS.
 */

const GREETING = {
  T1: {
    'src/greet.js': "exports.greet = (name) => `Hello, ${name}!`;\n",
    'tests/greet.test.js': "const test = require('node:test');\nconst assert = require('node:assert');\nconst { greet } = require('../src/greet');\ntest('REQ-001-B01 greets by name', () => assert.strictEqual(greet('Ada'), 'Hello, Ada!'));\n",
  },
  T2: {
    'src/shout.js': "exports.shout = (text) => `${text.toUpperCase()}!`;\n",
    'tests/shout.test.js': "const test = require('node:test');\nconst assert = require('node:assert');\nconst { shout } = require('../src/shout');\ntest('REQ-002-B01 shouts', () => assert.strictEqual(shout('hi'), 'HI!'));\n",
  },
};

const FAREWELL = {
  T1: {
    'src/bye.js': "exports.bye = (name) => `Bye, ${name}.`;\n",
    'tests/bye.test.js': "const test = require('node:test');\nconst assert = require('node:assert');\nconst { bye } = require('../src/bye');\ntest('REQ-001-B01 says bye', () => assert.strictEqual(bye('Ada'), 'Bye, Ada.'));\n",
  },
};

const TESTS = {
  T1: '- REQ-001-B01: tests/greet.test.js#REQ-001-B01 greets by name',
  T2: '- REQ-002-B01: tests/shout.test.js#REQ-002-B01 shouts',
};

/** `pass`: every review passes. `reviewer-fails`: every review fails, so the circuit breaker opens. */
const state = { mode: 'pass' };

/** Every request is recorded, for the tests to look at (through the `loomTest.requests` command). */
const requests = [];

function reply(messages) {
  const prompts = messages.filter((m) => m.role === 'user' && m.text.trim());
  const prompt = prompts.length ? prompts[prompts.length - 1].text : '';
  const last = messages[messages.length - 1];
  const afterTools = last && last.role === 'user' && last.toolResults > 0;
  let role = 'implementer';
  if (/combined reviewer|审查/.test(prompt) && !/implementer subagent/.test(prompt)) role = 'reviewer';
  else if (/You are the test reporter|测试报告/.test(prompt) && !/implementer subagent/.test(prompt)) role = 'test-reporter';
  const task = (/(?:for task|Fix mode for task)\s+(T\d+)/.exec(prompt) || /\b(T\d+)\b/.exec(prompt) || [])[1];
  requests.push({ role, task, afterTools, messages: messages.length });

  if (role === 'reviewer' && state.mode === 'reviewer-fails') {
    return { text: '## Fix instructions\n\n### Fix item 1\n- Problem: the message is not the one the spec asks for\n- File: src/bye.js\n- Location: bye\n- Severity: major\n- Direction: follow the spec\n\nverdict: FAIL', toolCalls: [] };
  }
  if (role === 'reviewer') return { text: 'The change matches the task and its behavior.\n\nverdict: PASS', toolCalls: [] };
  if (role === 'test-reporter') return { text: '## Summary\nEvery behavior is implemented and tested.\n\n## Results\nAll tests passed.\n\nverdict: PASS', toolCalls: [] };
  const farewell = /farewell/.test(prompt);
  const files = (farewell ? FAREWELL : GREETING)[task];
  if (!files) return { text: `I do not know task ${task}.\n\nSTATUS: BLOCKED: unknown task`, toolCalls: [] };
  if (!afterTools) {
    return { text: `Writing ${task}.`, toolCalls: Object.entries(files).map(([path, content]) => ({ name: 'loom_write_file', input: { path, content } })) };
  }
  const tests = farewell ? '- REQ-001-B01: tests/bye.test.js#REQ-001-B01 says bye' : TESTS[task];
  return { text: `## Summary\n${task} implemented.\n\n## Tests\n${tests}\n\n## Exported interfaces\n- none\n\nSTATUS: DONE`, toolCalls: [] };
}

module.exports = { reply, requests, state };
