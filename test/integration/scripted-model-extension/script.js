'use strict';
/**
 * The scripted replies, without vscode: given the conversation as plain messages
 * ({ role: 'user' | 'assistant', text, toolResults: number }), returns the next reply
 * ({ text, toolCalls: [{ name, input }] }). The implementer writes the task's files through
 * loom_write_file, then reports DONE; the reviewer and the test reporter say PASS.
 * The parting, waving, batching, resuming and typing specs use generated files: `src/<feature><n>.js` for
 * task T<n>. Typing's file is type-checked (`// @ts-check`): its first version has a type error the
 * TypeScript service reports, its fix (a prompt that names the Problems panel) has none.
 */

const GREETING = {
  T1: {
    'src/greet.js': 'exports.greet = (name) => `Hello, ${name}!`;\n',
    'tests/greet.test.js':
      "const test = require('node:test');\nconst assert = require('node:assert');\nconst { greet } = require('../src/greet');\ntest('REQ-001-B01 greets by name', () => assert.strictEqual(greet('Ada'), 'Hello, Ada!'));\n",
  },
  T2: {
    'src/shout.js': 'exports.shout = (text) => `${text.toUpperCase()}!`;\n',
    'tests/shout.test.js':
      "const test = require('node:test');\nconst assert = require('node:assert');\nconst { shout } = require('../src/shout');\ntest('REQ-002-B01 shouts', () => assert.strictEqual(shout('hi'), 'HI!'));\n",
  },
};

const FAREWELL = {
  T1: {
    'src/bye.js': 'exports.bye = (name) => `Bye, ${name}.`;\n',
    'tests/bye.test.js':
      "const test = require('node:test');\nconst assert = require('node:assert');\nconst { bye } = require('../src/bye');\ntest('REQ-001-B01 says bye', () => assert.strictEqual(bye('Ada'), 'Bye, Ada.'));\n",
  },
};

/** "Export todos as CSV" on the sample (the end-to-end suite): one task; its fix round writes a missing `done` as false. */
const CSV = {
  T1: (fixed) => ({
    'src/csv.js': `'use strict';\n\nconst cell = (value) => {\n  const text = ${fixed ? "value === undefined || value === null ? '' : String(value)" : 'String(value)'};\n  return /[",\\n]/.test(text) ? \`"\${text.replace(/"/g, '""')}"\` : text;\n};\n\nexports.toCsv = (todos) => ['id,title,done', ...todos.map((t) => [t.id, t.title, ${fixed ? 't.done ?? false' : 't.done'}].map(cell).join(','))].join('\\n') + '\\n';\n`,
    'tests/csv.test.js':
      "'use strict';\nconst test = require('node:test');\nconst assert = require('node:assert');\nconst { toCsv } = require('../src/csv');\n" +
      "test('REQ-001-B01 one row per todo', () => assert.strictEqual(toCsv([{ id: 1, title: 'milk', done: false }, { id: 2, title: 'eggs', done: true }]), 'id,title,done\\n1,milk,false\\n2,eggs,true\\n'));\n" +
      'test(\'REQ-001-B02 a title with a comma or quotes is quoted\', () => assert.strictEqual(toCsv([{ id: 1, title: \'milk, "fresh"\', done: false }]), \'id,title,done\\n1,"milk, ""fresh""",false\\n\'));\n',
  }),
  tests: '- REQ-001-B01: tests/csv.test.js#REQ-001-B01 one row per todo\n- REQ-001-B02: tests/csv.test.js#REQ-001-B02 a title with a comma or quotes is quoted',
};

const TESTS = {
  T1: '- REQ-001-B01: tests/greet.test.js#REQ-001-B01 greets by name',
  T2: '- REQ-002-B01: tests/shout.test.js#REQ-002-B01 shouts',
};

/** The files of task T<n> of the parting and waving specs, and the test line it declares. */
function generated(feature, task) {
  const n = task.slice(1);
  const word = { parting: ['See you', 'Take care'], waving: ['Hi', 'Hey', 'Yo'], batching: ['Hello there', 'Howdy', 'Greetings'], resuming: ['Welcome', 'Ahoy', 'Cheers'], typing: ['Typed'] }[feature][
    n - 1
  ];
  if (!word) return undefined;
  const name = `${feature}${n}`;
  const behavior = `REQ-00${n}-B01`;
  return {
    files: {
      [`src/${name}.js`]: `exports.${name} = (name) => \`${word}, \${name}.\`;\n`,
      [`tests/${name}.test.js`]: `const test = require('node:test');\nconst assert = require('node:assert');\nconst { ${name} } = require('../src/${name}');\ntest('${behavior} says ${word}', () => assert.strictEqual(${name}('Ada'), '${word}, Ada.'));\n`,
    },
    tests: `- ${behavior}: tests/${name}.test.js#${behavior} says ${word}`,
  };
}

/** Typing's source: a string declared a number (TypeScript's error 2322) until the fix round. */
function typed(name, word, fixed) {
  const type = fixed ? 'string' : 'number';
  return `// @ts-check\n/** @param {string} name */\nexports.${name} = (name) => {\n  /** @type {${type}} */\n  const text = \`${word}, \${name}.\`;\n  return String(text);\n};\n`;
}

/** The answer the needs-context mode waits for: the implementer goes on once its prompt holds it. */
const CONTEXT_ANSWER = 'use-the-short-form-42';

/**
 * `pass`: every review passes. `reviewer-fails`: every review fails, so the circuit breaker opens;
 * `reviewer-fails:T2` fails only T2's reviews. `hang`: implementer requests never answer (until
 * cancelled); `hang-drafting`: the same for the @loom drafting prompts. `decided`: the brainstorming
 * partner drafts at once (authoring.js). `search-then-hang`: the implementer sends a catastrophic regular expression search, then
 * hangs. `needs-context`: T1's implementer asks a question until its prompt holds CONTEXT_ANSWER.
 */
const state = { mode: 'pass' };

/** Every request is recorded, for the tests to look at (through the `loomTest.requests` command). */
const requests = [];
const { authoringReply } = require('./authoring');

function reply(messages) {
  const prompts = messages.filter((m) => m.role === 'user' && m.text.trim());
  const prompt = prompts.length ? prompts[prompts.length - 1].text : '';
  const last = messages[messages.length - 1];
  const afterTools = last && last.role === 'user' && last.toolResults > 0;
  // `rate-limited:N`: the next N drafting requests fail as a provider's rate limit does; then the mode is `pass` again.
  const limited = /^rate-limited:(\d+)$/.exec(state.mode);
  const authoring = authoringReply(prompt, limited ? 'pass' : state.mode);
  if (authoring && limited) {
    const left = Number(limited[1]) - 1;
    state.mode = left > 0 ? `rate-limited:${left}` : 'pass';
    requests.push({ role: 'author', command: authoring.command, messages: messages.length, turns: [], mode: 'rate-limited' });
    return { text: '', toolCalls: [], rateLimited: true };
  }
  // `hang-drafting`: a drafting request never answers (until cancelled: Loom: Stop Pipeline).
  if (authoring && state.mode === 'hang-drafting') {
    requests.push({ role: 'author', command: authoring.command, messages: messages.length, turns: [], mode: state.mode });
    return { text: '', toolCalls: [], hang: true };
  }
  if (authoring) {
    // The commands of the user's earlier turns the request carries (the participant sends them as "/brainstorm …").
    const turns = prompts
      .slice(0, -1)
      .map((m) => /^\/\w+/.exec(m.text)?.[0])
      .filter(Boolean);
    requests.push({ role: 'author', command: authoring.command, messages: messages.length, turns, mode: state.mode });
    return { text: authoring.text, toolCalls: [] };
  }
  let role = 'implementer';
  if (/combined reviewer|审查/.test(prompt) && !/implementer subagent/.test(prompt)) role = 'reviewer';
  else if (/You are the test reporter|测试报告/.test(prompt) && !/implementer subagent/.test(prompt)) role = 'test-reporter';
  const task = (/(?:for task|Fix mode for task)\s+(T\d+)/.exec(prompt) || /\b(T\d+)\b/.exec(prompt) || [])[1];
  // A fix-mode prompt names the feature only through its files (src/batching1.js).
  const feature = (/\b(parting|waving|batching|resuming|typing)(?=\d|\b)/.exec(prompt) || /\b(greeting|farewell)\b/.exec(prompt) || [])[1];
  // What "done means done" found missing, as the fix-mode prompt words it.
  const notDone = (/not done yet: [^\n]*/.exec(prompt) || [])[0];
  // The comment threads a person sent with Send to the Implementer, as the fix prompt words them.
  const comments = [...prompt.matchAll(/the person commented on (\S+) of your change: ([^\n]*)/g)].map((m) => `${m[1]} ${m[2]}`);
  requests.push({
    role,
    task,
    feature,
    afterTools,
    messages: messages.length,
    mode: state.mode,
    answered: prompt.includes(CONTEXT_ANSWER),
    ...(notDone ? { notDone } : {}),
    ...(comments.length ? { comments } : {}),
    ...(afterTools ? { toolText: last.toolText } : {}),
  });

  const failing = /^reviewer-fails(?::(.+))?$/.exec(state.mode);
  if (role === 'reviewer' && failing && (!failing[1] || failing[1].split(',').includes(task))) {
    return {
      text: '## Fix instructions\n\n### Fix item 1\n- Problem: the message is not the one the spec asks for\n- File: src/bye.js\n- Location: bye\n- Severity: major\n- Direction: follow the spec\n\nverdict: FAIL',
      toolCalls: [],
    };
  }
  if (role === 'reviewer') return { text: 'The change matches the task and its behavior.\n\nverdict: PASS', toolCalls: [] };
  if (role === 'test-reporter') return { text: '## Summary\nEvery behavior is implemented and tested.\n\n## Results\nAll tests passed.\n\nverdict: PASS', toolCalls: [] };
  if (state.mode === 'hang') return { text: '', toolCalls: [], hang: true };
  // A hostile search: `(a+)+$` backtracks catastrophically in a JavaScript RegExp. Then the model hangs.
  if (state.mode === 'search-then-hang') {
    if (!afterTools) return { text: 'Searching.', toolCalls: [{ name: 'loom_search_text', input: { query: '(a+)+$', regex: true } }] };
    return { text: '', toolCalls: [], hang: true };
  }
  if (feature === 'parting' || feature === 'waving' || feature === 'batching' || feature === 'resuming' || feature === 'typing') {
    if (state.mode === 'needs-context' && task === 'T1' && !prompt.includes(CONTEXT_ANSWER)) {
      return { text: 'I cannot tell which form the message takes.\n\nSTATUS: NEEDS_CONTEXT: Should the message use the short form?', toolCalls: [] };
    }
    const made = task && generated(feature, task);
    if (!made) return { text: `I do not know task ${task}.\n\nSTATUS: BLOCKED: unknown task`, toolCalls: [] };
    // A file the user rejected is written again the way they asked: its content differs.
    const asked = /rejected your change to (\S+)/.exec(prompt);
    const commented = comments.map((c) => c.replace(/:.*$/, ''));
    const files = Object.entries(made.files).map(([path, content]) => [
      path,
      asked && asked[1].startsWith(path) ? `${content}// as the user asked\n` : commented.includes(path) ? `${content}// as the comment asked\n` : content,
    ]);
    if (feature === 'typing') files[0][1] = typed(`typing${task.slice(1)}`, 'Typed', /Problems panel/.test(prompt));
    if (!afterTools) return { text: `Writing ${task}.`, toolCalls: files.map(([path, content]) => ({ name: 'loom_write_file', input: { path, content } })) };
    return { text: `## Summary\n${task} implemented.\n\n## Tests\n${made.tests}\n\n## Exported interfaces\n- none\n\nSTATUS: DONE`, toolCalls: [] };
  }
  if (/src\/csv\.js|toCsv/.test(prompt)) {
    const files = task === 'T1' && CSV.T1(/BLOCKER|undefined/.test(prompt) && /Fix mode/i.test(prompt));
    if (!files) return { text: `I do not know task ${task}.\n\nSTATUS: BLOCKED: unknown task`, toolCalls: [] };
    if (!afterTools) return { text: `Writing ${task}.`, toolCalls: Object.entries(files).map(([path, content]) => ({ name: 'loom_write_file', input: { path, content } })) };
    return { text: `## Summary\n${task} implemented.\n\n## Tests\n${CSV.tests}\n\n## Exported interfaces\n- toCsv(todos)\n\nSTATUS: DONE`, toolCalls: [] };
  }
  const farewell = /farewell/.test(prompt);
  let files = (farewell ? FAREWELL : GREETING)[task];
  // A fix the code review asked for (Loom: Answer Review's fix item): the source changes, as the reviewer asked.
  if (files && /the code review blocks on/.test(prompt)) files = Object.fromEntries(Object.entries(files).map(([p, c], i) => [p, i === 0 ? `${c}// checked as the review asked\n` : c]));
  if (!files) return { text: `I do not know task ${task}.\n\nSTATUS: BLOCKED: unknown task`, toolCalls: [] };
  if (!afterTools) {
    return { text: `Writing ${task}.`, toolCalls: Object.entries(files).map(([path, content]) => ({ name: 'loom_write_file', input: { path, content } })) };
  }
  const tests = farewell ? '- REQ-001-B01: tests/bye.test.js#REQ-001-B01 says bye' : TESTS[task];
  return { text: `## Summary\n${task} implemented.\n\n## Tests\n${tests}\n\n## Exported interfaces\n- none\n\nSTATUS: DONE`, toolCalls: [] };
}

module.exports = { reply, requests, state, CONTEXT_ANSWER };
