'use strict';
/**
 * The specs the parity suites put every surface through (the CLI, the MCP server, the
 * language-model tools, the palette): one per kind of answer the spec's actor gives to Advance,
 * each with the answer every surface must render. Written into `root`/specs by `writeParitySpecs`
 * (plain Node, so the unit suite and the integration suite in VS Code share them).
 */
const { createHash } = require('crypto');
const fs = require('fs');
const path = require('path');

const SPEC_MD = '# Parity\n\nUsers see the same answer whatever they ask through.\n\n## Requirements\n\n- REQ-001: the answer is the same\n';
const REQUIREMENTS = {
  requirements: [
    {
      id: 'REQ-001',
      status: 'in_progress',
      types: ['functional'],
      required_categories: ['happy-path'],
      acceptance: ['the answer is the same'],
      behaviors: [{ id: 'REQ-001-B01', category: 'happy-path', description: 'same answer', status: 'in_progress', acceptance: ['it is'] }],
    },
  ],
};

const sha = (text) => createHash('sha256').update(text).digest('hex');

function state(name, stage, extra = {}) {
  return {
    spec_dir: `specs/${name}`,
    pipeline_type: 'feature',
    current_stage: stage,
    loom_version: '2.3.0',
    started_at: '2026-12-01T08:00:00.000Z',
    updated_at: '2026-12-01T08:00:00.000Z',
    current_stage_started_at: '2026-12-01T08:00:00.000Z',
    stage_history: [],
    metadata: {},
    ...extra,
  };
}

/**
 * Each case: the spec's name (a suffix), how its files differ from a spec at brainstorming whose
 * outputs are there, and what the actor answers to Advance: a change (with the person's word), a
 * question for the person (without it), or a refusal with its code.
 */
const CASES = [
  { name: 'ready', expect: { kind: 'needs-confirmation' } },
  { name: 'missing-output', expect: { kind: 'refused', code: 'transition-refused' }, files: { 'requirements.json': null } },
  { name: 'unreadable-input', expect: { kind: 'refused', code: 'unreadable-input' }, files: { 'requirements.json': '{ "requirements": [' } },
  {
    name: 'failed',
    expect: { kind: 'refused', code: 'spec-failed' },
    state: (n) => state(n, 'failed', { failure_reason: 'scope changed', stage_history: [{ stage: 'brainstorming', status: 'failed', reason: 'scope changed' }] }),
  },
  {
    name: 'stale-handoff',
    expect: { kind: 'refused', code: 'stale-handoff' },
    files: {
      'handoffs/brainstorming.json': JSON.stringify({
        stage: 'brainstorming',
        task_id: 'brainstorming',
        status: 'done',
        artifacts: ['spec.md'],
        artifact_fingerprints: { 'spec.md': sha('an older spec.md') },
      }),
    },
  },
  {
    name: 'stale-approval',
    expect: { kind: 'refused', code: 'stale-approval' },
    // Passed once (before a recovery), with the sha256 of a spec.md that has changed since.
    state: (n) =>
      state(n, 'brainstorming', {
        stage_history: [
          {
            stage: 'brainstorming',
            entered_at: '2026-11-30T08:00:00.000Z',
            exited_at: '2026-11-30T09:00:00.000Z',
            status: 'passed',
            approval: 'user_confirmed',
            approved_at: '2026-11-30T09:00:00.000Z',
            approval_fingerprints: { 'spec.md': sha('an older spec.md') },
          },
          { stage: 'detail-expansion', status: 'failed', reason: 'back to the drawing board' },
          { stage: 'failed', status: 'passed', recovery_from: 'failed' },
        ],
      }),
  },
  {
    name: 'open-threads',
    expect: { kind: 'refused', code: 'open-threads' },
    threadsRule: true,
    files: {
      'review-comments.json': JSON.stringify({
        version: 1,
        threads: [
          {
            id: 't1',
            file: 'spec.md',
            line: 1,
            end_line: 1,
            quote: '# Parity',
            status: 'open',
            created_at: '2026-12-01T09:00:00.000Z',
            comments: [{ id: 'c1', author: 'ana', body: 'Which surfaces?', created_at: '2026-12-01T09:00:00.000Z' }],
          },
        ],
      }),
    },
  },
  { name: 'corrupt-state', expect: { kind: 'refused', code: 'state-unreadable' }, rawState: '{ "current_stage": "brainstorming", ' },
  {
    name: 'running-tasks',
    expect: { kind: 'refused', code: 'tasks-running' },
    // Held for a task run by another live process (the token says so): loom's own format.
    lock: (pid) => `${pid}\n2026-12-01T09:00:00.000Z\nrun-0f1e2d3c4b5a6978`,
  },
];

const specName = (c) => `2026-12-01+parity-${c.name}`;

/** Writes every case's spec under `root`/specs; `lockPid` is a live process other than the readers. */
function writeParitySpecs(root, lockPid) {
  const out = [];
  for (const c of CASES) {
    const name = specName(c);
    const dir = path.join(root, 'specs', name);
    fs.mkdirSync(path.join(dir, 'handoffs'), { recursive: true });
    const files = { 'spec.md': SPEC_MD, 'requirements.json': JSON.stringify(REQUIREMENTS, null, 2), ...c.files };
    for (const [file, text] of Object.entries(files)) {
      if (text === null) continue;
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
    fs.writeFileSync(path.join(dir, 'pipeline.state.json'), c.rawState ?? JSON.stringify(c.state ? c.state(name) : state(name, 'brainstorming'), null, 2));
    if (c.lock) fs.writeFileSync(path.join(dir, '.loom-run.lock'), c.lock(lockPid));
    out.push({ ...c, specDir: `specs/${name}`, dir });
  }
  return out;
}

/** The team's rule the open-threads case needs, in the repository's settings as VS Code keeps them. */
function writeThreadsRule(root, on) {
  const file = path.join(root, '.vscode', 'settings.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const settings = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
  if (on) settings['loom.review.blockOnOpenThreads'] = true;
  else delete settings['loom.review.blockOnOpenThreads'];
  fs.writeFileSync(file, `${JSON.stringify(settings, null, 2)}\n`);
}

module.exports = { CASES, specName, writeParitySpecs, writeThreadsRule, SPEC_MD };
