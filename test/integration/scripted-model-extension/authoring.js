'use strict';
/**
 * Scripted answers to the @loom chat commands. The drafts are the good ones of
 * test/fixtures/authoring (its path comes in LOOM_TEST_AUTHORING_FIXTURE), except that the first
 * spec.md of /brainstorm leaves out REQ-002, so Loom's checks send it back once for repair.
 */
const fs = require('fs');
const path = require('path');

const fixture = (name) => fs.readFileSync(path.join(process.env.LOOM_TEST_AUTHORING_FIXTURE || '', name), 'utf8');
const block = (p, content) => `=== FILE: ${p} ===\n${content}=== END FILE ===\n`;

/** The reply for an authoring prompt, or undefined when the prompt is not one. */
function authoringReply(prompt) {
  if (/do not pass loom's checks yet/.test(prompt)) {
    return { command: 'repair', text: `You are right, spec.md lost REQ-002.\n\n${block('spec.md', fixture('spec.md'))}` };
  }
  const said = prompt.slice(prompt.lastIndexOf('## The user says'));
  if (/You are loom's brainstorming partner/.test(prompt)) {
    if (!/approach A/i.test(said)) {
      return {
        command: 'brainstorm',
        text: 'Three ways to do it:\n\n1. **Tags on the todo** (A): a list of words per todo. Simplest.\n2. **A tag table** (B): rename and colours later, twice the writes.\n3. **Free-text labels** (C): no validation.\n\nI recommend A. Which one?',
      };
    }
    const partial = fixture('spec.md').replace(/## REQ-002[\s\S]*?(?=## Non-goals)/, '');
    return { command: 'brainstorm', text: `Going with approach A: tags on the todo.\n\n${block('spec.md', partial)}${block('requirements.json', fixture('requirements.brainstorm.json'))}` };
  }
  if (/You are loom's detail-expansion step/.test(prompt)) {
    return { command: 'expand', text: `REQ-001 gets its invalid-input behavior; REQ-002 a boundary one.\n\n${block('requirements.json', fixture('requirements.expanded.json'))}` };
  }
  if (/You are loom's planning step/.test(prompt)) {
    const files = ['plan.md', 'tasks/T1.md', 'tasks/T2.md', 'traceability.json'];
    return { command: 'plan', text: `Two tasks: T1 validates and stores tags, T2 filters.\n\n${files.map((f) => block(f, fixture(f))).join('')}` };
  }
  return undefined;
}

module.exports = { authoringReply };
