'use strict';
/**
 * Scripted answers to the @loom chat commands. The drafts are the good ones of
 * test/fixtures/authoring (its path comes in LOOM_TEST_AUTHORING_FIXTURE), except that the first
 * spec.md of /brainstorm leaves out REQ-002, so Loom's checks send it back once for repair.
 * /review and /respond answer from what their prompt holds: the files of the diff, the points of
 * review-feedback.md, named in the reply so a test can see what reached the model; without a diff
 * (or without feedback) they draft nothing and say why.
 */
const fs = require('fs');
const path = require('path');

const fixture = (name) => fs.readFileSync(path.join(process.env.LOOM_TEST_AUTHORING_FIXTURE || '', name), 'utf8');
const block = (p, content) => `=== FILE: ${p} ===\n${content}=== END FILE ===\n`;

/**
 * The reply for an authoring prompt, or undefined when the prompt is not one. In mode `decided`
 * the brainstorming partner drafts at once, as if the user had already chosen approach A (Loom:
 * Run Pipeline asks with no words of the user's).
 */
function authoringReply(prompt, mode) {
  if (/do not pass loom's checks yet/.test(prompt)) {
    return { command: 'repair', text: `You are right, spec.md lost REQ-002.\n\n${block('spec.md', fixture('spec.md'))}` };
  }
  const said = prompt.slice(prompt.lastIndexOf('## The user says'));
  if (/You are loom's reviewer's assistant/.test(prompt)) return refineReply(prompt);
  if (/You are loom's reconcile step/.test(prompt)) return reconcileReply(prompt);
  if (/You are loom's brainstorming partner/.test(prompt)) {
    if (!/approach A/i.test(said) && mode !== 'decided') {
      return {
        command: 'brainstorm',
        text: 'Three ways to do it:\n\n1. **Tags on the todo** (A): a list of words per todo. Simplest.\n2. **A tag table** (B): rename and colours later, twice the writes.\n3. **Free-text labels** (C): no validation.\n\nI recommend A. Which one?',
      };
    }
    const partial = fixture('spec.md').replace(/## REQ-002[\s\S]*?(?=## Non-goals)/, '');
    return {
      command: 'brainstorm',
      text: `Going with approach A, as the Approach section of spec.md says.\n\n${block('spec.md', partial)}${block('requirements.json', fixture('requirements.brainstorm.json'))}`,
    };
  }
  if (/You are loom's detail-expansion step/.test(prompt)) {
    return { command: 'expand', text: `REQ-001 gets its invalid-input behavior; REQ-002 a boundary one.\n\n${block('requirements.json', fixture('requirements.expanded.json'))}` };
  }
  if (/You are loom's planning step/.test(prompt)) {
    const tasks = fs.readdirSync(path.join(process.env.LOOM_TEST_AUTHORING_FIXTURE || '', 'tasks')).map((t) => `tasks/${t}`);
    const files = ['plan.md', ...tasks, 'traceability.json'];
    return { command: 'plan', text: `The plan: ${tasks.map((t) => path.basename(t, '.md')).join(', ')}, in plan.md.\n\n${files.map((f) => block(f, fixture(f))).join('')}` };
  }
  if (/You are loom's code-review-request step/.test(prompt)) {
    const files = changedFiles(prompt);
    if (!files.length) return { command: 'review', text: "The prompt holds no diff of the feature, so there is nothing to review yet. Commit the feature's work in its worktree and ask again." };
    const stat = /^ *\d+ files? changed.*$/m.exec(prompt);
    return { command: 'review', text: `I reviewed the diff of ${files.join(', ')} (${stat ? stat[0].trim() : 'no stat'}).\n\n${block('review-request.md', fixture('review-request.md'))}` };
  }
  if (/You are loom's code-review-response step/.test(prompt)) {
    const points = section(prompt, 'review-feedback.md')
      .split('\n')
      .filter((l) => /^- /.test(l));
    if (!points.length) return { command: 'respond', text: 'review-feedback.md holds no point to answer yet.' };
    return { command: 'respond', text: `Answering the ${points.length} points of review-feedback.md:\n${points.join('\n')}\n\n${block('review-response.md', fixture('review-response.md'))}` };
  }
  return undefined;
}

/**
 * /refine: answers each open thread of spec.md by adding, under the line it quotes, the sentence
 * its first comment asks for ("Say that …" becomes "…"), and says so in a THREAD line. The
 * spec.md it edits is the one the prompt holds, so the test sees the prompt carried the file.
 */
function refineReply(prompt) {
  const threads = [...prompt.matchAll(/^THREAD (t[0-9a-f]+) — (\S+), lines? (\d+)(?:-(\d+))?.*\n((?:> .*\n)+)- [^:]+: (.*)$/gm)].map((m) => ({
    id: m[1],
    file: m[2],
    end: Number(m[4] || m[3]),
    ask: m[6].replace(/^Say that /i, '').replace(/\.?$/, '.'),
  }));
  const onSpec = threads.filter((t) => t.file === 'spec.md');
  if (!onSpec.length) return { command: 'refine', text: 'No thread on spec.md: nothing to refine.' };
  // The file runs from its heading to the prompt's next section: spec.md has `##` headings of its own.
  const start = prompt.indexOf('### spec.md\n') + '### spec.md\n'.length;
  const lines = prompt.slice(start, prompt.indexOf('\n\n## The user says', start)).split('\n');
  for (const t of [...onSpec].sort((a, b) => b.end - a.end)) lines.splice(t.end, 0, t.ask.charAt(0).toUpperCase() + t.ask.slice(1));
  const text = `${lines.join('\n').replace(/\n*$/, '\n')}`;
  return { command: 'refine', text: `${onSpec.map((t) => `THREAD ${t.id}: added "${t.ask}" under line ${t.end}`).join('\n')}\n\n${block('spec.md', text)}` };
}

/**
 * /reconcile: the requirements.json the prompt holds, with its first requirement's last behavior
 * superseded (ids kept, as the checks demand), naming the files of the diff since the baseline so
 * a test sees the diff reached the model.
 */
function reconcileReply(prompt) {
  const files = [...prompt.matchAll(/^diff --git a\/(\S+) b\//gm)].map((m) => m[1]);
  const ledger = JSON.parse(section(prompt, 'requirements.json'));
  const list = Array.isArray(ledger.requirements) ? ledger.requirements : Object.values(ledger.requirements);
  const last = list[0].behaviors[list[0].behaviors.length - 1];
  last.status = 'superseded';
  last.description = `${last.description} (superseded: the code of ${files.join(', ')} no longer has it)`;
  return { command: 'reconcile', text: `The diff changed ${files.join(', ')}; ${last.id} is superseded.\n\n${block('requirements.json', `${JSON.stringify(ledger, null, 2)}\n`)}` };
}

/** The paths of the `diff --git` headers under the prompt's "## Changes" heading. */
function changedFiles(prompt) {
  const start = prompt.indexOf('## Changes');
  const end = prompt.indexOf('=== FILE:', start);
  const diff = start < 0 ? '' : prompt.slice(start, end < 0 ? undefined : end);
  return [...diff.matchAll(/^diff --git a\/(\S+) b\//gm)].map((m) => m[1]);
}

/** The text under the prompt's `### <file>` heading (the spec's current files). */
function section(prompt, file) {
  const heading = `### ${file}\n`;
  const start = prompt.indexOf(heading);
  if (start < 0) return '';
  const rest = prompt.slice(start + heading.length);
  const end = rest.search(/\n\n##/);
  return end < 0 ? rest : rest.slice(0, end);
}

module.exports = { authoringReply };
